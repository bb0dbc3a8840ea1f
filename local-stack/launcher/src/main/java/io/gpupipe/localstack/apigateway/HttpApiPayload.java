package io.gpupipe.localstack.apigateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * API Gateway HTTP API payload format 2.0: builds the event a Lambda integration receives for a plain HTTP request
 * and turns the function's output back into the HTTP response, following AWS's documented rules (lower-cased
 * headers, duplicate headers and query parameters joined with commas, cookies apart, binary bodies base64-encoded;
 * a JSON output without {@code statusCode} is a 200 {@code application/json} body).
 */
public final class HttpApiPayload {
    public static final String ACCOUNT_ID = "000000000000";
    public static final String API_ID = "local";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US)
            .withZone(ZoneOffset.UTC);

    private HttpApiPayload() {
    }

    /** An HTTP request as the facade received it; header names in any case, possibly repeated. */
    public record Request(String method, String rawPath, String rawQuery, Map<String, List<String>> headers,
                          byte[] body, String sourceIp, String protocol) {
    }

    /** An HTTP response to send; header values already joined. */
    public record Response(int statusCode, Map<String, List<String>> headers, byte[] body) {
        public static Response json(int status, String body) {
            return new Response(status, Map.of("content-type", List.of("application/json")),
                    body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The payload v2 event for a request matched to {@code match}, without an authorizer. */
    public static ObjectNode event(HttpApiRoute.Match match, Request request, String requestId, Instant now,
                                   int port) {
        return event(match, request, requestId, now, port, null);
    }

    /**
     * The payload v2 event for a request matched to {@code match}; {@code jwtClaims} (null: no authorizer) are the
     * claims a JWT authorizer accepted, put where payload 2.0 puts them: {@code requestContext.authorizer.jwt.claims}
     * (with {@code scopes} null: no route of ours requires scopes).
     */
    public static ObjectNode event(HttpApiRoute.Match match, Request request, String requestId, Instant now,
                                   int port, Map<String, String> jwtClaims) {
        ObjectNode event = JobJson.mapper().createObjectNode();
        event.put("version", "2.0");
        event.put("routeKey", match.route().routeKey());
        event.put("rawPath", request.rawPath());
        event.put("rawQueryString", request.rawQuery() == null ? "" : request.rawQuery());
        Map<String, String> headers = headers(request, requestId, port);
        List<String> cookies = cookies(request.headers());
        if (!cookies.isEmpty()) {
            ArrayNode array = event.putArray("cookies");
            cookies.forEach(array::add);
        }
        ObjectNode h = event.putObject("headers");
        headers.forEach(h::put);
        Map<String, String> query = query(request.rawQuery());
        if (!query.isEmpty()) {
            ObjectNode q = event.putObject("queryStringParameters");
            query.forEach(q::put);
        }
        if (!match.pathParameters().isEmpty()) {
            ObjectNode p = event.putObject("pathParameters");
            match.pathParameters().forEach(p::put);
        }
        ObjectNode context = requestContext(match, request, headers, requestId, now);
        if (jwtClaims != null) {
            ObjectNode jwt = context.putObject("authorizer").putObject("jwt");
            ObjectNode claims = jwt.putObject("claims");
            jwtClaims.forEach(claims::put);
            jwt.putNull("scopes");
        }
        event.set("requestContext", context);
        putBody(event, request.body(), headers.get("content-type"));
        return event;
    }

    /**
     * {@code event} with what API Gateway's IAM authorizer puts into payload 2.0 for a SigV4-signed request of
     * {@code principal}: {@code requestContext.authorizer.iam} (accessKey, accountId, callerId, userArn, userId...).
     */
    public static ObjectNode withIamAuthorizer(ObjectNode event, LocalIamPrincipals.Principal principal) {
        ObjectNode iam = ((ObjectNode) event.get("requestContext")).putObject("authorizer").putObject("iam");
        iam.put("accessKey", principal.accessKeyId());
        iam.put("accountId", ACCOUNT_ID);
        iam.put("callerId", principal.callerId());
        iam.putNull("cognitoIdentity");
        iam.putNull("principalOrgId");
        iam.put("userArn", principal.userArn());
        iam.put("userId", principal.callerId());
        return event;
    }

    private static ObjectNode requestContext(HttpApiRoute.Match match, Request request, Map<String, String> headers,
                                             String requestId, Instant now) {
        String host = headers.getOrDefault("host", "localhost");
        String domain = host.contains(":") ? host.substring(0, host.indexOf(':')) : host;
        ObjectNode context = JobJson.mapper().createObjectNode();
        context.put("accountId", ACCOUNT_ID);
        context.put("apiId", API_ID);
        context.put("domainName", domain);
        context.put("domainPrefix", domain.contains(".") ? domain.substring(0, domain.indexOf('.')) : domain);
        ObjectNode http = context.putObject("http");
        http.put("method", request.method());
        http.put("path", request.rawPath());
        http.put("protocol", request.protocol());
        http.put("sourceIp", request.sourceIp());
        http.put("userAgent", headers.getOrDefault("user-agent", ""));
        context.put("requestId", requestId);
        context.put("routeKey", match.route().routeKey());
        context.put("stage", "$default");
        context.put("time", TIME.format(now));
        context.put("timeEpoch", now.toEpochMilli());
        return context;
    }

    private static Map<String, String> headers(Request request, String requestId, int port) {
        Map<String, String> headers = new LinkedHashMap<>();
        request.headers().forEach((name, values) -> {
            String key = name.toLowerCase(Locale.ROOT);
            if (!"cookie".equals(key) && !values.isEmpty()) {
                headers.merge(key, String.join(",", values), (a, b) -> a + "," + b);
            }
        });
        headers.merge("x-forwarded-for", request.sourceIp(), (a, b) -> a + ", " + b);
        headers.put("x-forwarded-port", Integer.toString(port));
        headers.put("x-forwarded-proto", "http");
        headers.put("x-amzn-trace-id", "Root=1-" + Long.toHexString(System.currentTimeMillis() / 1000) + "-"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 24));
        return headers;
    }

    private static List<String> cookies(Map<String, List<String>> headers) {
        List<String> cookies = new ArrayList<>();
        headers.forEach((name, values) -> {
            if ("cookie".equalsIgnoreCase(name)) {
                values.forEach(v -> {
                    for (String c : v.split(";")) {
                        if (!c.isBlank()) {
                            cookies.add(c.strip());
                        }
                    }
                });
            }
        });
        return cookies;
    }

    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            query.merge(key, value, (a, b) -> a + "," + b);
        }
        return query;
    }

    private static void putBody(ObjectNode event, byte[] body, String contentType) {
        if (body.length == 0) {
            event.put("isBase64Encoded", false);
            return;
        }
        String text = isTextual(contentType) ? utf8(body) : null;
        if (text != null) {
            event.put("body", text);
            event.put("isBase64Encoded", false);
        } else {
            event.put("body", Base64.getEncoder().encodeToString(body));
            event.put("isBase64Encoded", true);
        }
    }

    static boolean isTextual(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        String type = contentType.toLowerCase(Locale.ROOT).split(";")[0].strip();
        return type.startsWith("text/") || type.endsWith("/json") || type.endsWith("+json")
                || type.endsWith("/xml") || type.endsWith("+xml") || "application/javascript".equals(type)
                || "application/x-www-form-urlencoded".equals(type);
    }

    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The HTTP response for a function's output (payload format 2.0 response rules). */
    public static Response response(byte[] output) {
        JsonNode node;
        try {
            node = JobJson.mapper().readTree(output);
        } catch (IOException e) {
            return internalError();
        }
        if (node == null || node.isMissingNode()) {
            return internalError();
        }
        if (!node.isObject() || !node.has("statusCode")) {
            return new Response(200, Map.of("content-type", List.of("application/json")),
                    JobJson.write(node).getBytes(StandardCharsets.UTF_8));
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        node.path("headers").fields().forEachRemaining(e ->
                headers.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(e.getValue().asText()));
        node.path("multiValueHeaders").fields().forEachRemaining(e -> {
            List<String> values = headers.computeIfAbsent(e.getKey().toLowerCase(Locale.ROOT),
                    k -> new ArrayList<>());
            e.getValue().forEach(v -> {
                if (!values.contains(v.asText())) {
                    values.add(v.asText());
                }
            });
        });
        List<String> setCookies = new ArrayList<>();
        node.path("cookies").forEach(c -> setCookies.add(c.asText()));
        if (!setCookies.isEmpty()) {
            headers.computeIfAbsent("set-cookie", k -> new ArrayList<>()).addAll(setCookies);
        }
        headers.remove("content-length");
        headers.remove("transfer-encoding");
        String body = node.path("body").isNull() ? "" : node.path("body").asText("");
        byte[] bytes = node.path("isBase64Encoded").asBoolean(false)
                ? Base64.getDecoder().decode(body) : body.getBytes(StandardCharsets.UTF_8);
        return new Response(node.path("statusCode").asInt(500), headers, bytes);
    }

    /** What API Gateway answers when the integration fails. */
    public static Response internalError() {
        return Response.json(500, "{\"message\":\"Internal Server Error\"}");
    }

    /** What API Gateway's IAM authorizer answers for a refused signature. */
    public static Response forbidden() {
        return Response.json(403, "{\"message\":\"Forbidden\"}");
    }

    /** What API Gateway's JWT authorizer answers for a missing or refused token. */
    public static Response unauthorized() {
        return Response.json(401, "{\"message\":\"Unauthorized\"}");
    }

    public static Response notFound() {
        return Response.json(404, "{\"message\":\"Not Found\"}");
    }

    public static Response serviceUnavailable() {
        return Response.json(503, "{\"message\":\"Service Unavailable\"}");
    }

    public static Response tooLarge() {
        return Response.json(413, "{\"message\":\"Request Entity Too Large\"}");
    }
}
