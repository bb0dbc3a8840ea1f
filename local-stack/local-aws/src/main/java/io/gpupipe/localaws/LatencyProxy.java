package io.gpupipe.localaws;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy in front of one local endpoint that holds each HTTP request for a fixed delay before passing it on, so
 * every call costs at least that much, as a call to a region does. Bytes pass unchanged both ways (the Host header
 * and so the SigV4 signatures and presigned URLs stay valid). A request is recognised by its turn on the connection:
 * the first bytes the client sends after the previous final response (an interim {@code 100 Continue} does not end
 * a turn, so a PUT that waits for it is delayed once).
 */
public final class LatencyProxy implements AutoCloseable {
    private static final byte[] INTERIM_RESPONSE = "HTTP/1.1 1".getBytes(StandardCharsets.US_ASCII);
    private static final int BUFFER_BYTES = 64 * 1024;

    private final String name;
    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final Duration delay;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private LatencyProxy(String name, ServerSocket listener, InetSocketAddress upstream, Duration delay) {
        this.name = name;
        this.listener = listener;
        this.upstream = upstream;
        this.delay = delay;
    }

    /**
     * Listens on {@code host}:{@code port} (0: any free port) and forwards to {@code upstream}, each request
     * {@code delay} later.
     */
    public static LatencyProxy start(String name, String host, int port, InetSocketAddress upstream, Duration delay) {
        try {
            ServerSocket listener = new ServerSocket(port, 200, InetAddress.getByName(host));
            LatencyProxy proxy = new LatencyProxy(name, listener, upstream, delay);
            daemon(name + "-latency-accept", proxy::acceptLoop).start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("the " + name + " latency proxy cannot listen on " + host + ":" + port, e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    public Duration delay() {
        return delay;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                client.setTcpNoDelay(true);
                Socket server = new Socket();
                server.setTcpNoDelay(true);
                try {
                    server.connect(upstream);
                } catch (IOException e) {
                    client.close();
                    continue;
                }
                open.add(client);
                open.add(server);
                AtomicBoolean awaitingRequest = new AtomicBoolean(true);
                daemon(name + "-latency-up", () -> requests(client, server, awaitingRequest)).start();
                daemon(name + "-latency-down", () -> responses(server, client, awaitingRequest)).start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("local-aws: the " + name + " latency proxy stopped accepting: " + e);
                }
                return;
            }
        }
    }

    /** Client to server: the first bytes of each request wait {@link #delay}. */
    private void requests(Socket client, Socket server, AtomicBoolean awaitingRequest) {
        pump(client, server, (buffer, length) -> {
            if (awaitingRequest.getAndSet(false)) {
                pause();
            }
        });
    }

    /** Server to client: a final response ends the request's turn. */
    private void responses(Socket server, Socket client, AtomicBoolean awaitingRequest) {
        pump(server, client, (buffer, length) -> {
            if (!startsWith(buffer, length, INTERIM_RESPONSE)) {
                awaitingRequest.set(true);
            }
        });
    }

    private void pump(Socket from, Socket to, ChunkObserver beforeForwarding) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try (from; to) {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int read;
            while ((read = in.read(buffer)) >= 0) {
                beforeForwarding.observe(buffer, read);
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed or reset the connection: closing both (above) passes that on to the other
        } finally {
            open.remove(from);
            open.remove(to);
        }
    }

    private void pause() {
        try {
            // the injected latency itself: the point of this proxy
            Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean startsWith(byte[] buffer, int length, byte[] prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (buffer[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // already closed
        }
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    @FunctionalInterface
    private interface ChunkObserver {
        void observe(byte[] buffer, int length);
    }
}
