package io.gpupipe.localaws;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;

/**
 * Where one emulated service listens. Clients always use {@code clientPort}; the emulator listens there itself
 * unless the service has added latency, in which case it listens on a free {@code emulatorPort} and a
 * {@link LatencyProxy} takes the client port.
 */
record ServicePorts(String service, int clientPort, int emulatorPort, Duration latency) {

    /** Ports for {@code service} asked for on {@code requestedPort} (0: a free port) with {@code latency} added. */
    static ServicePorts plan(String service, int requestedPort, Duration latency) {
        int clientPort = requestedPort == 0 ? freePort() : requestedPort;
        return new ServicePorts(service, clientPort, latency.isZero() ? clientPort : freePort(), latency);
    }

    /** Whether a {@link LatencyProxy} stands between the clients and the emulator. */
    boolean proxied() {
        return !latency.isZero();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
