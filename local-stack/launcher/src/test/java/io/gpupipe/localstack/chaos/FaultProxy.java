package io.gpupipe.localstack.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback in front of one endpoint (SQS, S3, the model server) that can fail the way a network or a
 * service does: {@link Mode#REFUSE} closes the listening socket and every open connection (new connections get
 * "connection refused", calls in progress see a reset), {@link Mode#HANG} keeps accepting but forwards nothing in
 * either direction (calls hang until their client times out or the mode ends). No well-kept Java library for this
 * is served here (toxiproxy and netcrusher are not), so it is a small plain-Java one.
 */
public final class FaultProxy implements AutoCloseable {
    /** How the proxy treats traffic now. */
    public enum Mode {
        PASS, REFUSE, HANG
    }

    private final String name;
    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private final Object flow = new Object();
    private final AtomicLong connections = new AtomicLong();
    private volatile Mode mode = Mode.PASS;
    private volatile ServerSocket listener;
    private volatile boolean closed;

    private FaultProxy(String name, InetSocketAddress target, ServerSocket listener) {
        this.name = name;
        this.target = target;
        this.listener = listener;
        this.port = listener.getLocalPort();
    }

    /** A proxy on a free loopback port forwarding to {@code target}'s host and port. */
    public static FaultProxy start(String name, URI target) {
        FaultProxy proxy = new FaultProxy(name, new InetSocketAddress(target.getHost(), target.getPort()), bind(0));
        proxy.acceptLoop(proxy.listener);
        return proxy;
    }

    private static ServerSocket bind(int port) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 512);
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on port " + port, e);
        }
    }

    public String name() {
        return name;
    }

    /** The proxy's URI: {@code target} with the proxy's port (same scheme and path). */
    public URI uri(URI target) {
        return URI.create(target.getScheme() + "://127.0.0.1:" + port + (target.getRawPath() == null ? ""
                : target.getRawPath()));
    }

    public int port() {
        return port;
    }

    /** Connections accepted so far (shows that a component really goes through the proxy). */
    public long connections() {
        return connections.get();
    }

    public Mode mode() {
        return mode;
    }

    /** Switches the mode; REFUSE drops every connection and stops listening until the mode changes again. */
    public synchronized void mode(Mode next) {
        if (closed || next == mode) {
            return;
        }
        Mode previous = mode;
        mode = next;
        if (next == Mode.REFUSE) {
            closeQuietly(listener);
            open.forEach(FaultProxy::closeQuietly);
        } else if (previous == Mode.REFUSE) {
            listener = bind(port);
            acceptLoop(listener);
        }
        synchronized (flow) {
            flow.notifyAll();
        }
    }

    private void acceptLoop(ServerSocket socket) {
        threads.execute(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    threads.execute(() -> connect(client));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private void connect(Socket client) {
        connections.incrementAndGet();
        Socket upstream = new Socket();
        open.add(client);
        open.add(upstream);
        try {
            upstream.connect(target, 5_000);
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            threads.execute(() -> pump(upstream, client));
            pump(client, upstream);
        } catch (IOException e) {
            closeBoth(client, upstream);
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (!awaitFlow()) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side went away or the mode dropped the connection
        } finally {
            closeBoth(from, to);
        }
    }

    /** Blocks while hanging; false when the connection must be dropped. */
    private boolean awaitFlow() {
        synchronized (flow) {
            while (mode == Mode.HANG && !closed) {
                try {
                    flow.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return mode == Mode.PASS && !closed;
    }

    private void closeBoth(Socket a, Socket b) {
        closeQuietly(a);
        closeQuietly(b);
        open.remove(a);
        open.remove(b);
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        closeQuietly(listener);
        open.forEach(FaultProxy::closeQuietly);
        threads.shutdownNow();
    }
}
