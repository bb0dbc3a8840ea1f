package io.gpupipe.notifier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.notify.LegacyCallbackSignature;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client's webhook endpoint on loopback: records every request and answers each path with a scripted sequence
 * of status codes (200 once the script is used up).
 */
public final class CallbackReceiver implements AutoCloseable {
    /** One request as received; {@code headers} has the first value of each, names in lower case. */
    public record Received(String path, String body, Map<String, String> headers) {
        public String webhookId() {
            return headers.get(CallbackSignature.ID_HEADER);
        }

        public String timestamp() {
            return headers.get(CallbackSignature.TIMESTAMP_HEADER);
        }

        public String signature() {
            return headers.get(CallbackSignature.SIGNATURE_HEADER);
        }

        public String contentType() {
            return headers.get("content-type");
        }

        /** True when the Standard Webhooks signature verifies under {@code secret} now (5 minutes' tolerance). */
        public boolean verifiedBy(String secret) {
            return CallbackSignature.verify(CallbackKey.of(secret), webhookId(), timestamp(), signature(), body,
                    Instant.now(), CallbackSignature.DEFAULT_TOLERANCE);
        }

        /** True when the deprecated X-Gpupipe-Signature verifies under {@code secret} now. */
        public boolean legacyVerifiedBy(String secret) {
            return LegacyCallbackSignature.verify(secret,
                    headers.get(LegacyCallbackSignature.SIGNATURE_HEADER.toLowerCase(Locale.ROOT)),
                    headers.get(LegacyCallbackSignature.TIMESTAMP_HEADER.toLowerCase(Locale.ROOT)), body,
                    Instant.now(), CallbackSignature.DEFAULT_TOLERANCE);
        }
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
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    values.get(0)));
            received.add(new Received(path,
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), Map.copyOf(headers)));
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
