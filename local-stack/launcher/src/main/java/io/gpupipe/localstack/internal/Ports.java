package io.gpupipe.localstack.internal;

import io.gpupipe.localstack.exception.StartupException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Checks, before anything starts, that the fixed ports the user asked for are free. */
public final class Ports {
    private Ports() {
    }

    /** Throws a one-line {@link StartupException} naming the port, its flag and the fix when it is taken. */
    public static void requireFree(int port, String flag, String what) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new StartupException("port " + port + " for the " + what + " is already in use; stop the program "
                    + "using it or choose another port with " + flag + " " + suggestion(port));
        }
    }

    private static int suggestion(int port) {
        return port < 65_535 ? port + 1 : port - 1;
    }
}
