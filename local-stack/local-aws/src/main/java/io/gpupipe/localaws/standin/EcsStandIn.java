package io.gpupipe.localaws.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.localaws.LocalAws;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToIntFunction;

/**
 * Stand-in for the ECS control plane, speaking what SDK 2.57.8's EcsClient speaks: AWS JSON 1.1 ({@code POST /},
 * {@code X-Amz-Target: AmazonEC2ContainerServiceV20141113.DescribeServices}, content type
 * {@code application/x-amz-json-1.1}, SigV4 for "ecs"). Services are given by name or ARN.
 *
 * <p>Two ways to know the services: scripted ({@link #EcsStandIn()} then {@link #setService}; a missing service comes
 * back under {@code failures} with reason MISSING, an unknown cluster as ClusterNotFoundException, as ECS does), or
 * live ({@link #EcsStandIn(ToIntFunction)}: every cluster and service exists, with as many running (and desired)
 * tasks as the function says, as the local stack reports its worker processes). Request bodies are recorded.
 * {@code UpdateService} with a {@code desiredCount} sets a scripted service's desired count (its running count follows
 * only when the test sets it: ECS starts tasks later) and is recorded; in live mode it is recorded only.
 */
public final class EcsStandIn implements StandIn {
    static final String TARGET_PREFIX = "AmazonEC2ContainerServiceV20141113.";
    static final String CONTENT_TYPE = "application/x-amz-json-1.1";
    static final String ACCOUNT = "123456789012";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A service's counts. */
    public record ServiceState(int desired, int running, int pending) {
    }

    private final HttpServer server;
    private final ToIntFunction<String> liveRunningTasks;
    private final Map<String, Map<String, ServiceState>> clusters = new ConcurrentHashMap<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<JsonNode> updates = new CopyOnWriteArrayList<>();

    /** Scripted: knows only the services given to {@link #setService}. */
    public EcsStandIn() throws IOException {
        this(null);
    }

    /** Live: {@code runningTasks} tells how many tasks run for a service name, in any cluster. */
    public EcsStandIn(ToIntFunction<String> runningTasks) throws IOException {
        this.liveRunningTasks = runningTasks;
        this.server = StandInHttp.start(this::handle);
    }

    @Override
    public URI endpoint() {
        return StandInHttp.endpoint(server);
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

    /** UpdateService request bodies received, in order. */
    public List<JsonNode> updates() {
        return List.copyOf(updates);
    }

    public void reset() {
        clusters.clear();
        requests.clear();
        updates.clear();
    }

    /** ECS's UpdateService: a scripted service's desired count changes (ServiceNotFoundException when missing). */
    private void updateService(HttpExchange exchange, JsonNode request) throws IOException {
        String cluster = request.path("cluster").asText("default");
        cluster = cluster.substring(cluster.lastIndexOf('/') + 1);
        String name = request.path("service").asText();
        String service = name.substring(name.lastIndexOf('/') + 1);
        if (liveRunningTasks == null) {
            ServiceState state = clusters.getOrDefault(cluster, Map.of()).get(service);
            if (state == null) {
                error(exchange, 400, "ServiceNotFoundException", "Service not found.");
                return;
            }
            if (request.has("desiredCount")) {
                setService(cluster, service, request.path("desiredCount").asInt(), state.running());
            }
        }
        ServiceState now = state(clusters.getOrDefault(cluster, Map.of()), service);
        ObjectNode response = JSON.createObjectNode();
        response.putObject("service").put("serviceName", service).put("desiredCount", now.desired())
                .put("runningCount", now.running()).put("status", "ACTIVE");
        StandInHttp.respond(exchange, 200, CONTENT_TYPE, JSON.writeValueAsBytes(response));
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
            boolean update = (TARGET_PREFIX + "UpdateService").equals(target);
            if (!update && !(TARGET_PREFIX + "DescribeServices").equals(target)) {
                error(exchange, 400, "UnknownOperationException", "unsupported target " + target);
                return;
            }
            JsonNode request = JSON.readTree(StandInHttp.body(exchange));
            if (update) {
                updates.add(request);
                updateService(exchange, request);
                return;
            }
            requests.add(request);
            describeServices(exchange, request);
        }
    }

    /** The counts of a service, or null when it does not exist. */
    private ServiceState state(Map<String, ServiceState> scripted, String service) {
        if (liveRunningTasks == null) {
            return scripted.get(service);
        }
        int running = liveRunningTasks.applyAsInt(service);
        return new ServiceState(running, running, 0);
    }

    private void describeServices(HttpExchange exchange, JsonNode request) throws IOException {
        String cluster = request.path("cluster").asText("default");
        cluster = cluster.substring(cluster.lastIndexOf('/') + 1);
        Map<String, ServiceState> services = clusters.get(cluster);
        if (services == null && liveRunningTasks == null) {
            error(exchange, 400, "ClusterNotFoundException", "Cluster not found.");
            return;
        }
        String arnPrefix = "arn:aws:ecs:" + LocalAws.REGION + ":" + ACCOUNT + ":";
        ObjectNode response = JSON.createObjectNode();
        ArrayNode found = response.putArray("services");
        ArrayNode failures = response.putArray("failures");
        for (JsonNode name : request.path("services")) {
            String service = name.asText().substring(name.asText().lastIndexOf('/') + 1);
            String arn = arnPrefix + "service/" + cluster + "/" + service;
            ServiceState state = state(services, service);
            if (state == null) {
                failures.addObject().put("arn", arn).put("reason", "MISSING");
                continue;
            }
            found.addObject().put("serviceArn", arn).put("serviceName", service)
                    .put("clusterArn", arnPrefix + "cluster/" + cluster)
                    .put("status", "ACTIVE").put("desiredCount", state.desired())
                    .put("runningCount", state.running()).put("pendingCount", state.pending())
                    .put("launchType", "MANAGED_INSTANCES").put("schedulingStrategy", "REPLICA");
        }
        StandInHttp.respond(exchange, 200, CONTENT_TYPE, JSON.writeValueAsBytes(response));
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        String body = JSON.createObjectNode().put("__type", type).put("message", message).toString();
        StandInHttp.respond(exchange, status, CONTENT_TYPE, body.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
