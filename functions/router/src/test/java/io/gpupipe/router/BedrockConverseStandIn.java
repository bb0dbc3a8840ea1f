package io.gpupipe.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local stand-in for the Bedrock Runtime Converse API (REST-JSON): {@code POST /model/{modelId}/converse} with a
 * SigV4-signed JSON body {@code {messages:[{role, content:[{text}]}], system:[{text}], inferenceConfig}}, answering
 * {@code {output:{message:{role:"assistant", content:[{text}]}}, stopReason, usage, metrics}} or an AWS error
 * ({@code x-amzn-ErrorType} header, {@code {"message"}} body). The answer, a delay or a failure are scripted.
 */
public final class BedrockConverseStandIn implements AutoCloseable {
    private static final Pattern CONVERSE_PATH = Pattern.compile("^/model/([^/]+)/converse$");

    /** One request the stand-in received: decoded model id and JSON body. */
    public record Received(String modelId, JsonNode body, String authorization) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile String answer = "SMALL";
    private volatile Duration delay = Duration.ZERO;
    private volatile int failStatus;

    public BedrockConverseStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answer normally with this text, promptly. */
    public void answer(String text) {
        answer = text;
        delay = Duration.ZERO;
        failStatus = 0;
    }

    public void delay(Duration d) {
        delay = d;
    }

    /** Answer every request with an AWS error of this status (500: InternalServerException, 429: Throttling). */
    public void fail(int status) {
        failStatus = status;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public void reset() {
        received.clear();
        answer("SMALL");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Matcher matcher = CONVERSE_PATH.matcher(exchange.getRequestURI().getRawPath());
            if (!"POST".equals(exchange.getRequestMethod()) || !matcher.matches()) {
                error(exchange, 404, "UnknownOperationException", "unknown operation");
                return;
            }
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (authorization == null || !authorization.startsWith("AWS4-HMAC-SHA256 ")) {
                error(exchange, 403, "AccessDeniedException", "missing SigV4 authorization");
                return;
            }
            JsonNode body = JobJson.mapper().readTree(exchange.getRequestBody());
            JsonNode text = body.path("messages").path(0).path("content").path(0).path("text");
            if (!text.isTextual() || !"user".equals(body.path("messages").path(0).path("role").asText())) {
                error(exchange, 400, "ValidationException", "messages[0] must be a user text message");
                return;
            }
            received.add(new Received(URLDecoder.decode(matcher.group(1), StandardCharsets.UTF_8), body,
                    authorization));
            sleep(delay); // simulates Bedrock's model latency, not a wait
            if (failStatus != 0) {
                error(exchange, failStatus, failStatus == 429 ? "ThrottlingException" : "InternalServerException",
                        "scripted failure");
                return;
            }
            send(exchange, 200, null, converseResponse(answer));
        }
    }

    private static String converseResponse(String text) {
        ObjectNode root = JobJson.mapper().createObjectNode();
        ObjectNode message = root.putObject("output").putObject("message");
        message.put("role", "assistant");
        message.putArray("content").addObject().put("text", text);
        root.put("stopReason", "end_turn");
        root.putObject("usage").put("inputTokens", 120).put("outputTokens", 1).put("totalTokens", 121);
        root.putObject("metrics").put("latencyMs", 42);
        return root.toString();
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        send(exchange, status, type, JobJson.mapper().createObjectNode().put("message", message).toString());
    }

    private static void send(HttpExchange exchange, int status, String errorType, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("x-amzn-RequestId", UUID.randomUUID().toString());
        if (errorType != null) {
            exchange.getResponseHeaders().add("x-amzn-ErrorType", errorType);
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(Duration d) {
        if (d.isZero()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
