package io.gpupipe.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.notify.LegacyCallbackSignature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client's webhook endpoint on loopback: records every request and answers each path with a scripted sequence of
 * status codes (200 once the script is used up). One made {@link #verifying(String) verifying} a secret checks each
 * Standard Webhooks signature on arrival, as a client would: it answers 401 to one that does not verify and 204 to
 * one that does, and keeps the verified ones by the result event's requestId.
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

        /** The result event the body carries, or an empty object when the body is not JSON. */
        public JsonNode event() {
            try {
                JsonNode event = JobJson.mapper().readTree(body);
                return event == null ? JobJson.mapper().createObjectNode() : event;
            } catch (IOException e) {
                return JobJson.mapper().createObjectNode();
            }
        }
    }

    private final String secret;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "callback-receiver");
        t.setDaemon(true);
        return t;
    });
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Deque<Integer>> scripts = new ConcurrentHashMap<>();
    private final Map<String, List<Received>> verified = new ConcurrentHashMap<>();
    private final AtomicInteger rejected = new AtomicInteger();

    /** A receiver that answers every request (scripted statuses, else 200) without checking signatures. */
    public CallbackReceiver() throws IOException {
        this(null);
    }

    private CallbackReceiver(String secret) throws IOException {
        this.secret = secret;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A receiver that checks every request's signature under {@code secret} when it arrives. */
    public static CallbackReceiver verifying(String secret) {
        try {
            return new CallbackReceiver(secret);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** An allow-listed URL for {@code path} ("localhost" is what the local stack allow-lists). */
    public String url(String path) {
        return "http://localhost:" + port() + path;
    }

    /** Where it listens, by address (for a proxy put in front of it). */
    public URI base() {
        return URI.create("http://127.0.0.1:" + port());
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

    /** A verifying receiver's callbacks for {@code requestId} whose signature verified on arrival, in order. */
    public List<Received> verified(String requestId) {
        return List.copyOf(verified.getOrDefault(requestId, List.of()));
    }

    /** How many requests a verifying receiver refused (signature not verified, or no requestId in the event). */
    public int rejected() {
        return rejected.get();
    }

    public void reset() {
        received.clear();
        scripts.clear();
        verified.clear();
        rejected.set(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    values.get(0)));
            Received request = new Received(path,
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), Map.copyOf(headers));
            received.add(request);
            if (secret != null) {
                exchange.sendResponseHeaders(keepIfVerified(request) ? 204 : 401, -1);
                return;
            }
            Deque<Integer> script = scripts.get(path);
            Integer status = script == null ? null : script.poll();
            exchange.sendResponseHeaders(status == null ? 200 : status, -1);
        }
    }

    /** Verified now (on arrival: the signature's timestamp tolerance runs from when it was sent). */
    private boolean keepIfVerified(Received request) {
        String requestId = request.event().path("requestId").asText(null);
        if (!request.verifiedBy(secret) || requestId == null) {
            rejected.incrementAndGet();
            return false;
        }
        verified.computeIfAbsent(requestId, id -> new CopyOnWriteArrayList<>()).add(request);
        return true;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
