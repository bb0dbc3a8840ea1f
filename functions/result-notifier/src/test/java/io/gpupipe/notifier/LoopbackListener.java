package io.gpupipe.notifier;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP listener on loopback that counts the connections it accepts and never answers them (each is held open until
 * {@link #close}): a receiver that accepts and says nothing, or a place no request should reach.
 */
final class LoopbackListener implements AutoCloseable {
    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    LoopbackListener() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    held.add(server.accept());
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "loopback-listener");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.get();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : held) {
            socket.close();
        }
    }
}
