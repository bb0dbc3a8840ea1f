package io.gpupipe.localstack.internal;

import java.io.PrintStream;

/**
 * The launcher's standard output, shared by every component: whole lines only, each child's lines prefixed with its
 * name ({@code [router] ...}), the launcher's own with {@code [local-stack]}.
 */
public final class Console {
    private final PrintStream out;

    public Console(PrintStream out) {
        this.out = out;
    }

    public static Console system() {
        return new Console(System.out);
    }

    /** A progress or status line of the launcher. */
    public void info(String line) {
        print("[local-stack] " + line);
    }

    /** A line written by a component (child process or in-JVM service). */
    public void component(String name, String line) {
        print("[" + name + "] " + line);
    }

    /** A block printed as is (the banner). */
    public void raw(String text) {
        print(text);
    }

    private void print(String text) {
        synchronized (out) {
            out.println(text);
            out.flush();
        }
    }
}
