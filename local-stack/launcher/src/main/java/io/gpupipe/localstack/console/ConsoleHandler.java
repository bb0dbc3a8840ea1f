package io.gpupipe.localstack.console;

import static io.gpupipe.localstack.console.ConsoleWrites.error;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.owner.Owner;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The console's HTTP side under {@code /console} on the API port: the page (HTML, script, style from the
 * classpath) and its JSON calls. The page submits and reads jobs through the public API itself; the only write here
 * is the DLQ redrive, which must come from the console's own page: a JSON POST (another site's form cannot send
 * one without a CORS preflight, which this server never grants) whose Origin, when sent, is this server.
 * Every request passes {@link ConsoleAccess} first: this machine, a local {@code Host}, and the token when required.
 */
final class ConsoleHandler implements HttpHandler {
    static final String BASE = "/console";
    /** The JSON calls: with {@code --require-token}, each needs a caller's token. */
    static final String API = BASE + "/api";
    private static final String RESOURCES = "/io/gpupipe/localstack/console/";
    private static final Map<String, String> FILES = Map.of("/console", "index.html", "/console/",
            "index.html", "/console/console.js", "console.js", "/console/console.css", "console.css");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8");

    private final ConsoleApi api;
    private final ConsoleWrites writes;
    private final ConsoleAccess access;
    private final String contentSecurityPolicy;
    private final Console console;

    /** {@code s3Origin}: where the page may load a speech result's audio from (the presigned URL's host). */
    ConsoleHandler(ConsoleApi api, ConsoleWrites writes, ConsoleAccess access, URI s3Origin, Console console) {
        this.api = api;
        this.writes = writes;
        this.access = access;
        this.console = console;
        // no inline script or style at all: even a rendering mistake could not run a prompt's <script>
        this.contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                + "connect-src 'self'; media-src 'self' " + s3Origin + "; object-src 'none'; base-uri 'none'; "
                + "frame-ancestors 'none'; form-action 'self'";
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            ConsoleAccess.Verdict verdict = access.check(exchange.getRemoteAddress().getAddress(),
                    exchange.getRequestHeaders().getFirst("Host"),
                    exchange.getRequestHeaders().getFirst("Authorization"), path.startsWith(API));
            if (verdict instanceof ConsoleAccess.Verdict.Refused refused) {
                if (refused.status() == 401) {
                    exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
                }
                json(exchange, refused.status(), error(refused.field(), refused.message()));
            } else if ("GET".equals(method) && FILES.containsKey(path)) {
                file(exchange, FILES.get(path));
            } else if ("GET".equals(method)) {
                get(exchange, path.substring(BASE.length()), ConsoleAccess.scope(verdict));
            } else if ("POST".equals(method) && path.equals(API + "/dlq/redrive")) {
                redrive(exchange);
            } else {
                json(exchange, 405, error("method", method + " " + path + " is not served here"));
            }
        } catch (IOException | RuntimeException e) {
            console.component("console", exchange.getRequestMethod() + " " + exchange.getRequestURI()
                    + " failed: " + e);
        }
    }

    private void get(HttpExchange exchange, String path, Optional<Owner> scope) throws IOException {
        switch (path) {
            case "/api/config" -> json(exchange, 200, api.config());
            case "/api/jobs" -> json(exchange, 200, api.jobs(scope));
            case "/api/queues" -> json(exchange, 200, api.queues(scope));
            case "/api/scaling" -> json(exchange, 200, api.scaling());
            case "/api/usage" -> json(exchange, 200, api.usage(scope));
            default -> {
                String prefix = "/api/jobs/";
                String id = path.startsWith(prefix) ? path.substring(prefix.length()) : "";
                if (RequestIds.isValid(id)) {
                    json(exchange, 200, api.job(id, scope));
                } else {
                    json(exchange, 404, error("path", "no console page or call at " + BASE + path));
                }
            }
        }
    }

    private void redrive(HttpExchange exchange) throws IOException {
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        String host = exchange.getRequestHeaders().getFirst("Host");
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.startsWith("application/json")
                || (origin != null && !origin.equals("http://" + host))) {
            json(exchange, 403, error("origin", "the redrive is started from the console's own page only"));
            return;
        }
        byte[] body = exchange.getRequestBody().readNBytes(4096);
        ConsoleWrites.Result result = writes.redrive(body);
        if (result.status() == 202) {
            api.redriven();
        }
        json(exchange, result.status(), result.body());
    }

    private void file(HttpExchange exchange, String name) throws IOException {
        try (InputStream in = ConsoleHandler.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                json(exchange, 404, error("path", name + " is missing from the launcher's classpath"));
                return;
            }
            byte[] bytes = in.readAllBytes();
            String extension = name.substring(name.lastIndexOf('.') + 1);
            exchange.getResponseHeaders().set("Content-Type", TYPES.get(extension));
            if (name.endsWith(".html")) {
                exchange.getResponseHeaders().set("Content-Security-Policy", contentSecurityPolicy);
            }
            send(exchange, 200, bytes);
        }
    }

    private static void json(HttpExchange exchange, int status, JsonNode body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        send(exchange, status, JobJson.write(body).getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }
}
