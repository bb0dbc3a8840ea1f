package io.gpupipe.localstack.internal;

import java.nio.file.Path;

/** The {@code java} executable of the JVM running the launcher, for its child processes. */
public final class JavaCommand {
    private JavaCommand() {
    }

    public static String java() {
        String exe = System.getProperty("os.name", "").toLowerCase().contains("win") ? "java.exe" : "java";
        return Path.of(System.getProperty("java.home"), "bin", exe).toString();
    }
}
