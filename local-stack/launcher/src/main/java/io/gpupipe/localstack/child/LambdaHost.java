package io.gpupipe.localstack.child;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one Lambda function from its real JVM deployment package (the unzipped {@code function.zip} on the classpath)
 * the way AWS's Java runtime does: the handler class is constructed once (init phase), then each event goes to
 * {@code handleRequest(InputStream, OutputStream, Context)}, one at a time, like a single execution environment.
 * Events arrive over the Lambda Runtime Interface Emulator's invoke API on a loopback port, so {@code curl -d @event.json
 * http://127.0.0.1:PORT/2015-03-31/functions/function/invocations} works as it does with the RIE or {@code sam local}.
 *
 * <p>JDK classes only: the rest of the classpath belongs to the function.
 */
public final class LambdaHost {
    /** Printed once the handler is initialised and the invoke API listens; the launcher waits for it. */
    public static final String READY_MARKER = "gpupipe-lambda-host ready";
    public static final String DEFAULT_HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler";
    public static final String INVOKE_PATH_PREFIX = "/2015-03-31/functions/";
    private static final String CONTEXT_CLASS = "com.amazonaws.services.lambda.runtime.Context";
    private static final String LOGGER_CLASS = "com.amazonaws.services.lambda.runtime.LambdaLogger";

    private final String functionName;
    private final int memoryMb;
    private final long timeoutMillis;
    private final Object handler;
    private final Method handleRequest;
    private final Class<?> contextType;
    private final ExecutorService environments;
    private final int concurrency;

    private LambdaHost(String functionName, int memoryMb, long timeoutMillis, Object handler, Method handleRequest,
                       Class<?> contextType, int concurrency) {
        this.functionName = functionName;
        this.memoryMb = memoryMb;
        this.timeoutMillis = timeoutMillis;
        this.handler = handler;
        this.handleRequest = handleRequest;
        this.contextType = contextType;
        this.concurrency = concurrency;
        this.environments = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, "lambda-environment");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Arguments: {@code --name NAME --port PORT [--handler CLASS] [--timeout-seconds N] [--memory-mb N]
     * [--concurrency N] [--no-warm]}. Concurrency 1 (the default) is one execution environment; N lets N events run
     * at once, as N environments of a function would (sharing this JVM).
     */
    public static void main(String[] args) throws Exception {
        ChildSupport.superviseByParent();
        Map<String, String> options = parse(args);
        String name = options.getOrDefault("name", "function");
        int port = Integer.parseInt(options.getOrDefault("port", "0"));
        long started = System.nanoTime();
        LambdaHost host = init(name, options.getOrDefault("handler", DEFAULT_HANDLER),
                Integer.parseInt(options.getOrDefault("memory-mb", "512")),
                Long.parseLong(options.getOrDefault("timeout-seconds", "30")) * 1000,
                Integer.parseInt(options.getOrDefault("concurrency", "1")));
        if (!options.containsKey("no-warm") && DEFAULT_HANDLER.equals(host.handler.getClass().getName())) {
            // What the first invocation would do (start the Quarkus application); done here so that configuration
            // errors show at start-up rather than on the first request.
            Class.forName("io.quarkus.runtime.Quarkus").getMethod("manualStart").invoke(null);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.createContext(INVOKE_PATH_PREFIX, host::serve);
        // One invoke-API thread per execution environment (each waits for its invocation), never fewer than 16.
        server.setExecutor(Executors.newFixedThreadPool(Math.max(16, host.concurrency)));
        server.start();
        long initMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        System.out.println(READY_MARKER + " port=" + server.getAddress().getPort() + " init-ms=" + initMs);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "invoke-api-stop"));
    }

    private static LambdaHost init(String name, String handlerClass, int memoryMb, long timeoutMillis,
                                   int concurrency) throws ReflectiveOperationException {
        Class<?> contextType = Class.forName(CONTEXT_CLASS);
        Object handler = Class.forName(handlerClass).getConstructor().newInstance();
        Method method = handler.getClass().getMethod("handleRequest", InputStream.class, OutputStream.class,
                contextType);
        return new LambdaHost(name, memoryMb, timeoutMillis, handler, method, contextType, Math.max(1, concurrency));
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith("/invocations")) {
                respond(exchange, 404, "{\"message\":\"Not Found\"}", false);
                return;
            }
            byte[] event = exchange.getRequestBody().readAllBytes();
            String requestId = UUID.randomUUID().toString();
            Invocation result = invoke(event, requestId);
            exchange.getResponseHeaders().add("X-Amzn-RequestId", requestId);
            respond(exchange, 200, result.payload(), result.failed());
        }
    }

    private Invocation invoke(byte[] event, String requestId) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        Future<byte[]> running = environments.submit(() -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Object context = LambdaContext.create(contextType, LOGGER_CLASS, functionName, requestId, memoryMb,
                    deadline);
            handleRequest.invoke(handler, new ByteArrayInputStream(event), out, context);
            return out.toByteArray();
        });
        try {
            return new Invocation(new String(running.get(timeoutMillis, TimeUnit.MILLISECONDS),
                    StandardCharsets.UTF_8), false);
        } catch (TimeoutException e) {
            System.out.println(requestId + " Task timed out after " + timeoutMillis / 1000 + " seconds");
            return new Invocation(errorJson("Task timed out after " + timeoutMillis / 1000 + ".00 seconds",
                    "Sandbox.Timedout", null), true);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof InvocationTargetException ite ? ite.getCause() : e.getCause();
            cause.printStackTrace(System.out);
            return new Invocation(errorJson(String.valueOf(cause.getMessage()), cause.getClass().getName(), cause),
                    true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Invocation(errorJson("interrupted", "Runtime.Interrupted", null), true);
        }
    }

    private static void respond(HttpExchange exchange, int status, String body, boolean functionError)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        if (functionError) {
            exchange.getResponseHeaders().add("X-Amz-Function-Error", "Unhandled");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    /** The error document AWS's Java runtime returns for an unhandled exception. */
    static String errorJson(String message, String type, Throwable cause) {
        StringBuilder json = new StringBuilder("{\"errorMessage\":").append(quote(message))
                .append(",\"errorType\":").append(quote(type));
        if (cause != null) {
            json.append(",\"stackTrace\":[");
            StackTraceElement[] trace = cause.getStackTrace();
            for (int i = 0; i < Math.min(trace.length, 20); i++) {
                json.append(i == 0 ? "" : ",").append(quote(trace[i].toString()));
            }
            json.append(']');
        }
        return json.append('}').toString();
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String key = args[i].replaceFirst("^--", "");
            if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                options.put(key, args[++i]);
            } else {
                options.put(key, "true");
            }
        }
        return options;
    }

    private record Invocation(String payload, boolean failed) {
    }
}
