package io.gpupipe.notifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.localaws.standin.StandIn;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stand-in for Secrets Manager, speaking what SDK 2.57.8's SecretsManagerClient speaks: AWS JSON 1.1 ({@code POST /},
 * {@code X-Amz-Target: secretsmanager.GetSecretValue}, content type {@code application/x-amz-json-1.1}, SigV4 for
 * "secretsmanager"), answering {@code {"ARN","Name","SecretString","VersionId","VersionStages","CreatedDate"}} for a
 * stored secret (by ARN or name) and {@code ResourceNotFoundException} otherwise. Requests are recorded.
 */
public final class SecretsManagerStandIn implements StandIn {
    static final String CONTENT_TYPE = "application/x-amz-json-1.1";
    static final String TARGET = "secretsmanager.GetSecretValue";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as received: its X-Amz-Target and JSON body. */
    public record Request(String target, JsonNode body) {
    }

    private final HttpServer server;
    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresToInject = new AtomicInteger();

    public SecretsManagerStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", this::handle);
        server.start();
    }

    @Override
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Stores {@code value} as the current SecretString of the secret {@code arn}. */
    public void putSecret(String arn, String value) {
        secrets.put(arn, value);
    }

    /**
     * The next {@code count} requests get HTTP 500 {@code InternalServiceError}, the error Secrets Manager's API
     * reference lists for a server-side failure (the SDK retries it as a 5xx).
     */
    public void failNext(int count) {
        failuresToInject.set(count);
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            byte[] raw = exchange.getRequestBody().readAllBytes();
            if (!"POST".equals(exchange.getRequestMethod()) || !contentType.startsWith(CONTENT_TYPE)) {
                error(exchange, 400, "SerializationException", "expected POST with " + CONTENT_TYPE);
                return;
            }
            if (authorization == null || !authorization.startsWith("AWS4-HMAC-SHA256 Credential=")
                    || !authorization.contains("/secretsmanager/aws4_request")) {
                error(exchange, 403, "UnrecognizedClientException", "request is not SigV4-signed for secretsmanager");
                return;
            }
            JsonNode body = JSON.readTree(raw);
            requests.add(new Request(target, body));
            if (failuresToInject.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                error(exchange, 500, "InternalServiceError", "An error occurred on the server side.");
                return;
            }
            if (!TARGET.equals(target)) {
                error(exchange, 400, "UnknownOperationException", "unsupported target " + target);
                return;
            }
            getSecretValue(exchange, body.path("SecretId").asText(""));
        }
    }

    private void getSecretValue(HttpExchange exchange, String secretId) throws IOException {
        Map.Entry<String, String> secret = secrets.entrySet().stream()
                .filter(e -> e.getKey().equals(secretId) || name(e.getKey()).equals(secretId))
                .findFirst().orElse(null);
        if (secret == null) {
            error(exchange, 400, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.");
            return;
        }
        ObjectNode response = JSON.createObjectNode()
                .put("ARN", secret.getKey())
                .put("Name", name(secret.getKey()))
                .put("SecretString", secret.getValue())
                .put("VersionId", UUID.nameUUIDFromBytes(secret.getValue().getBytes(StandardCharsets.UTF_8))
                        .toString())
                .put("CreatedDate", 1.7645e9);
        response.putArray("VersionStages").add("AWSCURRENT");
        respond(exchange, 200, JSON.writeValueAsBytes(response));
    }

    /** The secret's name: the ARN's last part, less the 6-character suffix Secrets Manager appends. */
    private static String name(String arn) {
        String last = arn.substring(arn.indexOf(":secret:") + ":secret:".length());
        return last.matches(".+-[A-Za-z0-9]{6}") ? last.substring(0, last.length() - 7) : last;
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        respond(exchange, status, JSON.createObjectNode().put("__type", type).put("Message", message).toString()
                .getBytes(StandardCharsets.UTF_8));
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
        exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
