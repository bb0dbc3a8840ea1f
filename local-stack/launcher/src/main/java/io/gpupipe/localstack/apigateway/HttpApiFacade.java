package io.gpupipe.localstack.apigateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.FunctionInvoker;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The API Gateway HTTP API in front of the router, on a loopback port: each plain HTTP request that matches a route
 * becomes a payload 2.0 event for the function, and its output becomes the HTTP response; unmatched requests get
 * API Gateway's own 404, integration failures its 500, a timeout its 503, and bodies over 10 MB its 413. It lives in
 * the launcher JVM (not in the function's host process) so that the host stays a generic, JDK-only Lambda runtime.
 */
public final class HttpApiFacade implements AutoCloseable {
    static final int MAX_BODY_BYTES = 10 * 1024 * 1024;

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<HttpApiRoute> routes;
    private final FunctionInvoker function;
    private final Console console;
    /** The JWT authorizer in front of every route; null: none (every request reaches the function as is). */
    private final LocalCallers callers;
    private final List<Observer> observers = new CopyOnWriteArrayList<>();

    /** Told about every request a route matched, once its answer has been sent (the web console's job list). */
    @FunctionalInterface
    public interface Observer {
        void answered(HttpApiRoute.Match route, byte[] requestBody, int status, byte[] responseBody);

        /**
         * As above, with the request's caller as the authorizer vouched for it (null: refused): the function stores a
         * job under an id derived from its owner and the client's requestId ({@link io.gpupipe.model.owner.JobIds}).
         * By default the call above.
         */
        default void answered(HttpApiRoute.Match route, CallerIdentity caller, byte[] requestBody, int status,
                              byte[] responseBody) {
            answered(route, requestBody, status, responseBody);
        }
    }

    /** A request's matched route and body, and the answer sent for it; no route for unmatched requests. */
    private record Answered(Optional<HttpApiRoute.Match> route, CallerIdentity caller, byte[] requestBody,
                            HttpApiPayload.Response response) {
    }

    private HttpApiFacade(HttpServer server, ExecutorService executor, List<HttpApiRoute> routes,
                          FunctionInvoker function, Console console, LocalCallers callers) {
        this.server = server;
        this.executor = executor;
        this.routes = routes;
        this.function = function;
        this.console = console;
        this.callers = callers;
    }

    /** Listens on 127.0.0.1:{@code port} (0 = any free port). */
    public static HttpApiFacade start(int port, List<HttpApiRoute> routes, FunctionInvoker function,
                                      Console console) throws IOException {
        return start(port, routes, function, console, null);
    }

    /**
     * As above, with {@code callers}' JWT authorizer on every route (null: none): a refused token, or no token where
     * one is required, is answered 401 {@code {"message":"Unauthorized"}} without invoking the function, as API
     * Gateway does; an accepted token's claims go into the event's {@code requestContext.authorizer.jwt}. A
     * SigV4-signed request goes to {@code callers}' IAM authorizer instead: refused, 403
     * {@code {"message":"Forbidden"}}; accepted, the session goes into {@code requestContext.authorizer.iam}.
     */
    public static HttpApiFacade start(int port, List<HttpApiRoute> routes, FunctionInvoker function,
                                      Console console, LocalCallers callers) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        // API Gateway has no concurrency limit of its own worth modelling; enough threads that the router's
        // environments (at most LaunchOptions.MAX_ROUTER_CONCURRENCY) are the only bound.
        ExecutorService executor = Executors.newFixedThreadPool(64, r -> {
            Thread t = new Thread(r, "http-api");
            t.setDaemon(true);
            return t;
        });
        HttpApiFacade facade = new HttpApiFacade(server, executor, routes, function, console, callers);
        server.createContext("/", facade::handle);
        server.setExecutor(executor);
        server.start();
        return facade;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI baseUri() {
        return URI.create("http://localhost:" + port());
    }

    /** Serves {@code path} and everything under it with {@code handler} instead of the API (the web console). */
    public void mount(String path, HttpHandler handler) {
        server.createContext(path, handler);
    }

    /**
     * Serves {@code body} as {@code mediaType} at exactly {@code path} to GET and HEAD, beside the API (the API's
     * description); any other path under it or method gets API Gateway's 404, like an unmatched route.
     */
    public void serve(String path, String mediaType, byte[] body) {
        HttpApiPayload.Response document = new HttpApiPayload.Response(200, Map.of("content-type",
                List.of(mediaType)), body.clone());
        server.createContext(path, exchange -> {
            try (exchange) {
                boolean readable = "GET".equals(exchange.getRequestMethod())
                        || "HEAD".equals(exchange.getRequestMethod());
                boolean exact = path.equals(exchange.getRequestURI().getRawPath());
                send(exchange, readable && exact ? document : HttpApiPayload.notFound(), apiRequestId());
            }
        });
    }

    /** Adds an observer of the API's answers. */
    public void observe(Observer observer) {
        observers.add(observer);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Answered answered = null;
        try (exchange) {
            String requestId = apiRequestId();
            answered = respond(exchange, requestId);
            send(exchange, answered.response(), requestId);
        } catch (IOException | RuntimeException e) {
            console.component("http-api", exchange.getRequestMethod() + " " + exchange.getRequestURI()
                    + " failed: " + e);
        }
        // after the exchange is closed, so that an observer never delays an answer
        if (answered != null && answered.route().isPresent()) {
            for (Observer observer : observers) {
                try {
                    observer.answered(answered.route().get(), answered.caller(), answered.requestBody(),
                            answered.response().statusCode(), answered.response().body());
                } catch (RuntimeException e) {
                    console.component("http-api", "an observer of " + answered.route().get().route().routeKey()
                            + " failed: " + e);
                }
            }
        }
    }

    private Answered respond(HttpExchange exchange, String requestId) throws IOException {
        byte[] body = readBody(exchange.getRequestBody());
        if (body == null) {
            return new Answered(Optional.empty(), null, new byte[0], HttpApiPayload.tooLarge());
        }
        URI uri = exchange.getRequestURI();
        Optional<HttpApiRoute.Match> match = HttpApiRoute.find(routes, exchange.getRequestMethod(),
                uri.getRawPath());
        if (match.isEmpty()) {
            return new Answered(match, null, body, HttpApiPayload.notFound());
        }
        // the route's authorizer runs before the integration, as in API Gateway
        Map<String, String> claims = null;
        if (callers != null) {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (SigV4Authorizer.isSigV4(authorization)) {
                return signed(exchange, match.get(), body, requestId);
            }
            LocalCallers.Decision decision = callers.decide(authorization);
            if (decision instanceof LocalCallers.Decision.Unauthorized) {
                return new Answered(Optional.empty(), null, body, HttpApiPayload.unauthorized());
            }
            if (decision instanceof LocalCallers.Decision.Caller caller) {
                claims = caller.claims();
            }
        }
        return new Answered(match, identity(claims), body, invoke(exchange, match.get(), body, requestId, claims,
                null));
    }

    /** A SigV4-signed request: API Gateway's IAM authorizer, then the function with the session's IAM context. */
    private Answered signed(HttpExchange exchange, HttpApiRoute.Match match, byte[] body, String requestId)
            throws IOException {
        SigV4Authorizer.Decision decision = callers.sigV4().authorize(request(exchange, body));
        if (decision instanceof SigV4Authorizer.Decision.Caller caller) {
            return new Answered(Optional.of(match), caller.principal().identity(), body, invoke(exchange, match, body,
                    requestId, null, caller.principal()));
        }
        console.component("http-api", "403 " + match.route().routeKey() + ": "
                + ((SigV4Authorizer.Decision.Refused) decision).reason());
        return new Answered(Optional.empty(), null, body, HttpApiPayload.forbidden());
    }

    private static HttpApiPayload.Request request(HttpExchange exchange, byte[] body) {
        URI uri = exchange.getRequestURI();
        return new HttpApiPayload.Request(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(),
                Map.copyOf(exchange.getRequestHeaders()), body, exchange.getRemoteAddress().getAddress()
                .getHostAddress(), exchange.getProtocol());
    }

    /** The caller the router makes of these claims (none: the anonymous caller); null for a token without a subject. */
    private static CallerIdentity identity(Map<String, String> claims) {
        return claims == null ? CallerIdentity.ANONYMOUS : LocalCallers.identity(claims);
    }

    /** Invokes the function with the event of this request; {@code claims} or {@code iam} (or neither) its caller. */
    private HttpApiPayload.Response invoke(HttpExchange exchange, HttpApiRoute.Match match, byte[] body,
                                           String requestId, Map<String, String> claims,
                                           LocalIamPrincipals.Principal iam) throws IOException {
        ObjectNode payload = HttpApiPayload.event(match, request(exchange, body), requestId, Instant.now(), port(),
                claims);
        byte[] event = JobJson.write(iam == null ? payload : HttpApiPayload.withIamAuthorizer(payload, iam))
                .getBytes(StandardCharsets.UTF_8);
        LambdaFunction.Invocation result = function.invoke(event);
        if (result.timedOut()) {
            return HttpApiPayload.serviceUnavailable();
        }
        if (!result.ok()) {
            console.component("http-api", match.route().routeKey() + ": the function failed: "
                    + new String(result.payload(), StandardCharsets.UTF_8));
            return HttpApiPayload.internalError();
        }
        return HttpApiPayload.response(result.payload());
    }

    private static byte[] readBody(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }

    private static void send(HttpExchange exchange, HttpApiPayload.Response response, String requestId)
            throws IOException {
        response.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, List.copyOf(values)));
        exchange.getResponseHeaders().set("apigw-requestid", requestId);
        boolean noBody = response.body().length == 0 || "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : response.body().length);
        if (!noBody) {
            exchange.getResponseBody().write(response.body());
        }
    }

    /** An id shaped like API Gateway's ({@code apigw-requestid}). */
    private static String apiRequestId() {
        UUID id = UUID.randomUUID();
        byte[] bytes = new byte[10];
        long bits = id.getMostSignificantBits() ^ id.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (bits >>> (8 * i));
        }
        bytes[8] = (byte) id.getLeastSignificantBits();
        bytes[9] = (byte) (id.getMostSignificantBits() >>> 8);
        return Base64.getEncoder().encodeToString(bytes).replace('/', '_').replace('+', '-');
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
