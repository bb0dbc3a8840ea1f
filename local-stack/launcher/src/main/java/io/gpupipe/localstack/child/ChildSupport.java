package io.gpupipe.localstack.child;

import java.io.IOException;
import java.io.InputStream;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * What every child process of the local stack does first: ignore SIGINT (a Ctrl-C in the terminal reaches the whole
 * process group; the launcher then stops its children in order, workers first) and exit when its standard input
 * closes, which happens when the launcher dies by any means, so no child outlives it. JDK classes only: this runs on
 * the classpath of another application.
 */
final class ChildSupport {
    private ChildSupport() {
    }

    static void superviseByParent() {
        try {
            Signal.handle(new Signal("INT"), SignalHandler.SIG_IGN);
        } catch (IllegalArgumentException e) {
            // no SIGINT on this platform: nothing to ignore
        }
        Thread watcher = new Thread(ChildSupport::exitWhenStdinCloses, "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    private static void exitWhenStdinCloses() {
        InputStream in = System.in;
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) != -1) {
                // the launcher never writes; reading only detects the end of the stream
            }
        } catch (IOException e) {
            // a broken pipe means the same as end of stream: the launcher is gone
        }
        System.err.println("launcher gone (stdin closed): exiting");
        System.exit(0);
    }
}
