package io.gpupipe.notifier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client's webhook endpoint on loopback: records every request and answers each path with a scripted sequence
 * of status codes (200 once the script is used up).
 */
public final class CallbackReceiver implements AutoCloseable {
    /** One request as received. */
    public record Received(String path, String body, String signature, String timestamp, String contentType) {
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Deque<Integer>> scripts = new ConcurrentHashMap<>();

    public CallbackReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** An allow-listed URL for {@code path} ("localhost" is what the local stack allow-lists). */
    public String url(String path) {
        return "http://localhost:" + port() + path;
    }

    /** Answers the next requests to {@code path} with these statuses, in order. */
    public void script(String path, Integer... statuses) {
        scripts.put(path, new ArrayDeque<>(List.of(statuses)));
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Received> received(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    public void reset() {
        received.clear();
        scripts.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            received.add(new Received(path,
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                    exchange.getRequestHeaders().getFirst("X-Gpupipe-Signature"),
                    exchange.getRequestHeaders().getFirst("X-Gpupipe-Timestamp"),
                    exchange.getRequestHeaders().getFirst("Content-Type")));
            Deque<Integer> script = scripts.get(path);
            Integer status = script == null ? null : script.poll();
            exchange.sendResponseHeaders(status == null ? 200 : status, -1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
