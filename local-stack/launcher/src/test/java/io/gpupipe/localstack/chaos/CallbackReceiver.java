package io.gpupipe.localstack.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.model.notify.CallbackSignature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client's webhook endpoint on localhost: keeps, per requestId, what each callback whose HMAC signature verifies
 * reported (the signature covers the body, so a verified status is what the notifier signed); counts the rest.
 */
public final class CallbackReceiver implements AutoCloseable, SoakVerdict.Callbacks {
    private final String secret;
    private final Map<String, List<SoakVerdict.SignedCallback>> verified = new ConcurrentHashMap<>();
    private final AtomicInteger rejected = new AtomicInteger();
    private final ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "callback-receiver");
        t.setDaemon(true);
        return t;
    });
    private final HttpServer server;

    private CallbackReceiver(String secret) throws IOException {
        this.secret = secret;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        server.setExecutor(executor);
        server.createContext("/hook/", this::handle);
        server.start();
    }

    public static CallbackReceiver start(String secret) {
        try {
            return new CallbackReceiver(secret);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where it listens; the soak puts a {@link FaultProxy} in front to take it down and bring it back. */
    public URI base() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The callbackUrl path for a job, to be appended to the receiver's (or its proxy's) base. */
    public static String path(String requestId) {
        return "/hook/" + requestId;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean valid = CallbackSignature.verify(CallbackKey.of(secret), exchange.getRequestHeaders()::getFirst,
                    body, Instant.now(), CallbackSignature.DEFAULT_TOLERANCE);
            JsonNode event = parse(body);
            String requestId = event.path("requestId").asText(null);
            if (!valid || requestId == null) {
                rejected.incrementAndGet();
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            verified.computeIfAbsent(requestId, id -> new CopyOnWriteArrayList<>()).add(new SoakVerdict.SignedCallback(
                    event.path("status").asText(), event.path("errorCode").asText(null)));
            exchange.sendResponseHeaders(204, -1);
        }
    }

    /** The result event (io.gpupipe.notifier.domain.ResultEvent's JSON), or an empty node when it is not JSON. */
    private static JsonNode parse(String body) {
        try {
            JsonNode event = JobJson.mapper().readTree(body);
            return event == null ? JobJson.mapper().createObjectNode() : event;
        } catch (IOException e) {
            return JobJson.mapper().createObjectNode();
        }
    }

    @Override
    public List<SoakVerdict.SignedCallback> signed(String requestId) {
        return verified.getOrDefault(requestId, List.of());
    }

    @Override
    public int rejected() {
        return rejected.get();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
