package io.gpupipe.localstack.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.Console;
import io.gpupipe.model.JobJson;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToIntFunction;
import java.util.zip.GZIPInputStream;

/**
 * Local stand-ins for the two AWS control planes the scaling-metric function calls and that cannot run here, each on
 * the wire protocol of SDK 2.57.8: ECS {@code DescribeServices} (AWS JSON 1.1, {@code X-Amz-Target:
 * AmazonEC2ContainerServiceV20141113.DescribeServices}) reporting each local worker as one running task of its
 * tier's service, and CloudWatch (Smithy RPC v2 CBOR, {@code POST /service/GraniteServiceVersion20100801/operation/
 * OP}): {@code GetMetricData} answers no datapoints (there is no GPU here: no signal), {@code PutMetricData} prints
 * each metric the function would publish.
 */
public final class ControlPlaneStandIn implements AutoCloseable {
    private static final String ECS_TARGET = "AmazonEC2ContainerServiceV20141113.";
    private static final String CLOUDWATCH_PATH = "/service/GraniteServiceVersion20100801/operation/";

    /** One datum of a PutMetricData call. */
    public record Datum(String namespace, String name, Map<String, String> dimensions, double value, String unit) {
        @Override
        public String toString() {
            return namespace + " " + name + dimensions + " = " + (value == Math.rint(value)
                    ? Long.toString((long) value) : Double.toString(value)) + (unit == null ? "" : " " + unit);
        }
    }

    private final HttpServer server;
    private final Console console;
    private final ToIntFunction<String> runningTasks;
    private final List<Datum> published = new CopyOnWriteArrayList<>();

    private ControlPlaneStandIn(HttpServer server, Console console, ToIntFunction<String> runningTasks) {
        this.server = server;
        this.console = console;
        this.runningTasks = runningTasks;
    }

    /** {@code runningTasks} tells how many tasks run for an ECS service name. */
    public static ControlPlaneStandIn start(Console console, ToIntFunction<String> runningTasks) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        ControlPlaneStandIn standIn = new ControlPlaneStandIn(server, console, runningTasks);
        server.createContext("/", standIn::handle);
        server.start();
        return standIn;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every metric datum received so far. */
    public List<Datum> published() {
        return List.copyOf(published);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                body = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
            }
            String path = exchange.getRequestURI().getPath();
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            if (target != null && target.startsWith(ECS_TARGET)) {
                ecs(exchange, target.substring(ECS_TARGET.length()), body);
            } else if (path.startsWith(CLOUDWATCH_PATH)) {
                cloudWatch(exchange, path.substring(CLOUDWATCH_PATH.length()), body);
            } else {
                send(exchange, 400, "application/x-amz-json-1.1",
                        "{\"__type\":\"UnknownOperationException\"}".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private void ecs(HttpExchange exchange, String operation, byte[] body) throws IOException {
        if (!"DescribeServices".equals(operation)) {
            send(exchange, 400, "application/x-amz-json-1.1", ("{\"__type\":\"InvalidParameterException\","
                    + "\"message\":\"the local ECS stand-in supports only DescribeServices\"}")
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        JsonNode request = JobJson.mapper().readTree(body);
        String cluster = request.path("cluster").asText("default");
        String clusterArn = "arn:aws:ecs:" + LocalAws.REGION + ":000000000000:cluster/" + cluster;
        ObjectNode response = JobJson.mapper().createObjectNode();
        ArrayNode services = response.putArray("services");
        for (JsonNode name : request.path("services")) {
            String service = name.asText().substring(name.asText().lastIndexOf('/') + 1);
            int running = runningTasks.applyAsInt(service);
            ObjectNode s = services.addObject();
            s.put("serviceArn", "arn:aws:ecs:" + LocalAws.REGION + ":000000000000:service/" + cluster + "/"
                    + service);
            s.put("serviceName", service);
            s.put("clusterArn", clusterArn);
            s.put("status", "ACTIVE");
            s.put("desiredCount", running);
            s.put("runningCount", running);
            s.put("pendingCount", 0);
            s.put("launchType", "EC2");
        }
        response.putArray("failures");
        send(exchange, 200, "application/x-amz-json-1.1", JobJson.write(response).getBytes(StandardCharsets.UTF_8));
    }

    private void cloudWatch(HttpExchange exchange, String operation, byte[] body) throws IOException {
        Object decoded = Cbor.decode(body);
        Map<?, ?> request = decoded instanceof Map<?, ?> m ? m : Map.of();
        Map<String, Object> response = new LinkedHashMap<>();
        if ("PutMetricData".equals(operation)) {
            String namespace = String.valueOf(request.get("Namespace"));
            List<String> line = new ArrayList<>();
            for (Object item : list(request.get("MetricData"))) {
                Map<?, ?> datum = (Map<?, ?>) item;
                Map<String, String> dimensions = new LinkedHashMap<>();
                for (Object d : list(datum.get("Dimensions"))) {
                    Map<?, ?> dim = (Map<?, ?>) d;
                    dimensions.put(String.valueOf(dim.get("Name")), String.valueOf(dim.get("Value")));
                }
                Object value = datum.get("Value");
                Datum published = new Datum(namespace, String.valueOf(datum.get("MetricName")), dimensions,
                        value instanceof Number n ? n.doubleValue() : Double.NaN, (String) datum.get("Unit"));
                this.published.add(published);
                line.add(published.toString().substring(namespace.length() + 1));
            }
            console.component("cloudwatch", "PutMetricData " + namespace + ": " + String.join(", ", line));
        } else if ("GetMetricData".equals(operation)) {
            List<Object> results = new ArrayList<>();
            for (Object q : list(request.get("MetricDataQueries"))) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("Id", ((Map<?, ?>) q).get("Id"));
                result.put("Label", String.valueOf(((Map<?, ?>) q).get("Id")));
                result.put("Timestamps", List.of());
                result.put("Values", List.of());
                result.put("StatusCode", "Complete");
                results.add(result);
            }
            response.put("MetricDataResults", results);
            response.put("Messages", List.of());
        } else {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("__type", "com.amazonaws.cloudwatch#InvalidAction");
            error.put("message", "the local CloudWatch stand-in supports only PutMetricData and GetMetricData");
            exchange.getResponseHeaders().set("smithy-protocol", "rpc-v2-cbor");
            send(exchange, 400, "application/cbor", Cbor.encode(error));
            return;
        }
        exchange.getResponseHeaders().set("smithy-protocol", "rpc-v2-cbor");
        send(exchange, 200, "application/cbor", Cbor.encode(response));
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> l ? l : List.of();
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
