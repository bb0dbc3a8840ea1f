package io.gpupipe.localaws.standin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Stand-in for Lambda's asynchronous Invoke, speaking what SDK 2.57.8's LambdaClient speaks: REST-JSON
 * {@code POST /2015-03-31/functions/<name>/invocations} with {@code X-Amz-Invocation-Type: Event}, SigV4 for
 * "lambda"; answers 202 with no body, as Lambda does once it has queued the event, then hands the payload to the
 * function registered under that name on its own thread (the local stack: the packaged function in its host).
 * An unknown function is a 404 ResourceNotFoundException; other invocation types are refused (only the asynchronous
 * one is modelled). Invocations are recorded.
 */
public final class LambdaStandIn implements StandIn {
    static final String PATH_PREFIX = "/2015-03-31/functions/";
    static final String PATH_SUFFIX = "/invocations";

    /** One accepted invocation. */
    public record Invocation(String function, String payload) {
    }

    private final HttpServer server;
    private final Map<String, Consumer<byte[]>> functions = new ConcurrentHashMap<>();
    private final List<Invocation> invocations = new CopyOnWriteArrayList<>();
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "lambda-standin-event");
        t.setDaemon(true);
        return t;
    });

    public LambdaStandIn() throws IOException {
        server = StandInHttp.start(this::handle);
    }

    @Override
    public URI endpoint() {
        return StandInHttp.endpoint(server);
    }

    /** Events for {@code name} (a function name, or the last segment of its ARN) go to {@code handler}. */
    public void register(String name, Consumer<byte[]> handler) {
        functions.put(name, handler);
    }

    public List<Invocation> invocations() {
        return List.copyOf(invocations);
    }

    public void reset() {
        invocations.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            if (!"POST".equals(exchange.getRequestMethod()) || !path.startsWith(PATH_PREFIX)
                    || !path.endsWith(PATH_SUFFIX)) {
                error(exchange, 404, "UnknownOperationException", "expected POST " + PATH_PREFIX + "<name>"
                        + PATH_SUFFIX);
                return;
            }
            if (!StandInHttp.signedFor(exchange, "lambda")) {
                error(exchange, 403, "InvalidSignatureException", "request is not SigV4-signed for lambda");
                return;
            }
            String name = URLDecoder.decode(path.substring(PATH_PREFIX.length(), path.length() - PATH_SUFFIX.length()),
                    StandardCharsets.UTF_8);
            name = name.substring(name.lastIndexOf(':') + 1);
            if (!"Event".equals(exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type"))) {
                error(exchange, 400, "InvalidParameterValueException", "this stand-in models asynchronous "
                        + "invocations (X-Amz-Invocation-Type: Event) only");
                return;
            }
            Consumer<byte[]> function = functions.get(name);
            if (function == null) {
                error(exchange, 404, "ResourceNotFoundException", "Function not found: " + name);
                return;
            }
            byte[] payload = StandInHttp.body(exchange);
            invocations.add(new Invocation(name, new String(payload, StandardCharsets.UTF_8)));
            StandInHttp.respond(exchange, 202, "application/json", new byte[0]);
            runner.execute(() -> function.accept(payload));
        }
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        exchange.getResponseHeaders().set("X-Amzn-ErrorType", type);
        StandInHttp.respond(exchange, status, "application/json",
                ("{\"Type\":\"User\",\"message\":\"" + message.replace("\"", "'") + "\"}")
                        .getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        server.stop(0);
        runner.shutdownNow();
    }
}
