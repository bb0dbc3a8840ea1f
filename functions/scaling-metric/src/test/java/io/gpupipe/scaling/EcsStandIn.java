package io.gpupipe.scaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Test stand-in for the ECS control plane, speaking what SDK 2.57.8's EcsClient speaks: AWS JSON 1.1 ({@code POST
 * /}, {@code X-Amz-Target: AmazonEC2ContainerServiceV20141113.DescribeServices}, content type
 * {@code application/x-amz-json-1.1}, SigV4 for "ecs"). Knows the services it was given; a missing one comes back
 * under {@code failures} with reason MISSING, an unknown cluster as ClusterNotFoundException, as ECS does.
 */
public final class EcsStandIn implements AutoCloseable {
    static final String TARGET_PREFIX = "AmazonEC2ContainerServiceV20141113.";
    static final String CONTENT_TYPE = "application/x-amz-json-1.1";
    static final String ACCOUNT = "123456789012";

    /** A service's counts. */
    public record ServiceState(int desired, int running, int pending) {
    }

    private final HttpServer server;
    private final Map<String, Map<String, ServiceState>> clusters = new ConcurrentHashMap<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    public EcsStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public void setService(String cluster, String service, int desired, int running) {
        clusters.computeIfAbsent(cluster, c -> new ConcurrentHashMap<>()).put(service,
                new ServiceState(desired, running, Math.max(0, desired - running)));
    }

    public void removeService(String cluster, String service) {
        clusters.getOrDefault(cluster, Map.of()).remove(service);
    }

    /** DescribeServices request bodies received, in order. */
    public List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    public void reset() {
        clusters.clear();
        requests.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            String contentType = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
            if (!"POST".equals(exchange.getRequestMethod()) || !contentType.startsWith(CONTENT_TYPE)) {
                error(exchange, 400, "SerializationException", "expected POST with " + CONTENT_TYPE);
                return;
            }
            if (!StandInHttp.signedFor(exchange, "ecs")) {
                error(exchange, 403, "UnrecognizedClientException", "request is not SigV4-signed for ecs");
                return;
            }
            if (!(TARGET_PREFIX + "DescribeServices").equals(target)) {
                error(exchange, 400, "UnknownOperationException", "unsupported target " + target);
                return;
            }
            JsonNode request = JobJson.mapper().readTree(StandInHttp.body(exchange));
            requests.add(request);
            describeServices(exchange, request);
        }
    }

    private void describeServices(HttpExchange exchange, JsonNode request) throws IOException {
        String cluster = request.path("cluster").asText("default");
        Map<String, ServiceState> services = clusters.get(cluster);
        if (services == null) {
            error(exchange, 400, "ClusterNotFoundException", "Cluster not found.");
            return;
        }
        ObjectNode response = JobJson.mapper().createObjectNode();
        ArrayNode found = response.putArray("services");
        ArrayNode failures = response.putArray("failures");
        for (JsonNode name : request.path("services")) {
            String arn = "arn:aws:ecs:us-east-1:" + ACCOUNT + ":service/" + cluster + "/" + name.asText();
            ServiceState state = services.get(name.asText());
            if (state == null) {
                failures.addObject().put("arn", arn).put("reason", "MISSING");
                continue;
            }
            found.addObject().put("serviceArn", arn).put("serviceName", name.asText())
                    .put("clusterArn", "arn:aws:ecs:us-east-1:" + ACCOUNT + ":cluster/" + cluster)
                    .put("status", "ACTIVE").put("desiredCount", state.desired())
                    .put("runningCount", state.running()).put("pendingCount", state.pending())
                    .put("launchType", "MANAGED_INSTANCES").put("schedulingStrategy", "REPLICA");
        }
        StandInHttp.respond(exchange, 200, CONTENT_TYPE, response.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        String body = JobJson.mapper().createObjectNode().put("__type", type).put("message", message).toString();
        StandInHttp.respond(exchange, status, CONTENT_TYPE, body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
