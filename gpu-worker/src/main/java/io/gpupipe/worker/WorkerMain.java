package io.gpupipe.worker;

import io.gpupipe.worker.backend.embedded.EmbeddedBackend;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The worker's entry point. Runs until SIGTERM/SIGINT; Quarkus shutdown then drains (see {@link WorkerLifecycle}).
 * Once Quarkus has fully stopped, a process that loaded llama.cpp ends with {@link Runtime#halt}: the library keeps
 * a non-daemon thread alive after {@code close()}, which would otherwise keep the JVM running. Before Quarkus
 * starts, the JDK's HTTP keep-alive cache is sized for the window's concurrent S3 calls ({@link HttpKeepAlive}).
 */
@QuarkusMain
public class WorkerMain implements QuarkusApplication {

    public static void main(String... args) {
        HttpKeepAlive.configure();
        Quarkus.run(WorkerMain.class, WorkerMain::exit, args);
    }

    @Override
    public int run(String... args) {
        Quarkus.waitForExit();
        return 0;
    }

    static void exit(int code, Throwable failure) {
        System.out.flush();
        System.err.flush();
        if (EmbeddedBackend.nativeModelLoaded()) {
            Runtime.getRuntime().halt(code);
        }
        System.exit(code);
    }
}
