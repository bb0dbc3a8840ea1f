package io.gpupipe.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * gpupipe client example: submit a job, poll it, fetch its result and verify its callback (Standard Webhooks).
 *
 * <pre>
 * java -cp ... io.gpupipe.examples.GpupipeClient --api https://abc123.execute-api.eu-west-1.amazonaws.com \
 *     --region eu-west-1
 * java -cp ... io.gpupipe.examples.GpupipeClient --api http://localhost:8080 --token "$TOKEN" \
 *     --callback-port 9099 --webhook-secret whsec_...
 * </pre>
 */
public final class GpupipeClient {
    private static final Set<String> TERMINAL = Set.of("succeeded", "failed", "cancelled");
    private static final ObjectMapper JSON = new ObjectMapper();

    private GpupipeClient() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out));
    }

    /** The whole example; 0 when the job succeeded and its callback (when asked for) verified. */
    public static int run(String[] argv, PrintStream out) throws Exception {
        Map<String, String> args = options(argv);
        String region = args.getOrDefault("region", System.getenv("AWS_REGION"));
        ApiCaller api = new ApiCaller(args.getOrDefault("api", "http://localhost:8080"), args.get("token"), region,
                args.containsKey("sigv4"));
        ObjectNode job = (ObjectNode) JSON.readTree(args.getOrDefault("job",
                "{\"task\":\"speech\",\"prompt\":\"Hello from the Java example.\"}"));
        Instant deadline = Instant.now().plusSeconds(Long.parseLong(args.getOrDefault("timeout", "300")));
        CompletableFuture<Map<String, String>> callback = new CompletableFuture<>();
        HttpServer receiver = null;
        if (args.containsKey("callback-port")) {
            int port = Integer.parseInt(args.get("callback-port"));
            receiver = listen(port, callback);
            job.put("callbackUrl", args.getOrDefault("callback-url", "http://localhost:" + port + "/callback"));
        }
        try {
            ApiCaller.Reply reply = api.call("POST", "/v1/jobs", job.toString());
            out.println("submit: HTTP " + reply.status() + " " + reply.body());
            if (reply.status() != 200 && reply.status() != 202) {
                return 1;
            }
            String requestId = JSON.readTree(reply.body()).path("requestId").asText();

            JsonNode status;
            while (true) {
                reply = api.call("GET", "/v1/jobs/" + requestId, null);
                status = reply.status() == 200 ? JSON.readTree(reply.body()) : JSON.createObjectNode();
                out.println("poll: HTTP " + reply.status() + " status=" + status.path("status").asText(null));
                if (TERMINAL.contains(status.path("status").asText())) {
                    break;
                }
                if (Instant.now().isAfter(deadline)) {
                    out.println("the job did not finish in time");
                    return 1;
                }
                TimeUnit.SECONDS.sleep(1);
            }

            if (status.hasNonNull("resultUrl")) {
                reply = api.call("GET", status.path("resultUrl").asText(), null);
                String text = reply.body();
                out.println("result: HTTP " + reply.status() + " " + text.substring(0, Math.min(300, text.length())));
                if (reply.status() != 200) {
                    return 1;
                }
            }

            if (receiver != null) {
                long wait = Math.max(1, Duration.between(Instant.now(), deadline).toSeconds());
                Map<String, String> received = callback.get(wait, TimeUnit.SECONDS);
                boolean verified = args.containsKey("webhook-secret") && new WebhookVerifier(
                        args.get("webhook-secret")).verify(received.get("webhook-id"),
                        received.get("webhook-timestamp"), received.get("webhook-signature"), received.get("body"));
                out.println("callback: webhook-id=" + received.get("webhook-id") + " verified=" + verified + " "
                        + received.get("body"));
                if (args.containsKey("webhook-secret") && !verified) {
                    return 1;
                }
            }
            return "succeeded".equals(status.path("status").asText()) ? 0 : 1;
        } catch (TimeoutException e) {
            out.println("no callback arrived in time");
            return 1;
        } finally {
            if (receiver != null) {
                receiver.stop(0);
            }
        }
    }

    /** A one-path HTTP server on localhost; completes {@code callback} with the first request's headers and body. */
    private static HttpServer listen(int port, CompletableFuture<Map<String, String>> callback) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", exchange -> {
            Map<String, String> received = new HashMap<>();
            for (String name : new String[] {"webhook-id", "webhook-timestamp", "webhook-signature"}) {
                received.put(name, exchange.getRequestHeaders().getFirst(name));
            }
            received.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
            callback.complete(received);
        });
        server.start();
        return server;
    }

    /** {@code --name value} pairs; {@code --sigv4} alone. */
    private static Map<String, String> options(String[] argv) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            if (!argv[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + argv[i]);
            }
            String name = argv[i].substring(2);
            if (name.equals("sigv4")) {
                options.put(name, "true");
            } else if (i + 1 < argv.length) {
                options.put(name, argv[++i]);
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
        }
        return options;
    }
}
