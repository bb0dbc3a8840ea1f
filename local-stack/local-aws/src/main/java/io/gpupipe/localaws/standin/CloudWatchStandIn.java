package io.gpupipe.localaws.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Stand-in for the CloudWatch control plane, speaking what SDK 2.57.8's CloudWatchClient speaks: Smithy RPC v2 CBOR
 * ({@code POST /service/GraniteServiceVersion20100801/operation/<Op>}, {@code smithy-protocol: rpc-v2-cbor},
 * {@code application/cbor} bodies, timestamps as CBOR tag 1 epoch seconds, SigV4 for "monitoring", gzip request
 * bodies accepted; CBOR by jackson-dataformat-cbor). {@code GetMetricData} answers the datapoints scripted with
 * {@link #setSeries} (none by default: the local stack has no GPU, so no signal), or an injected failure;
 * {@code PutMetricData} calls are recorded and handed to an optional listener (the local stack prints them).
 * Alarms scripted with {@link #setAlarm} answer {@code DescribeAlarms} (by name) and follow
 * {@code DisableAlarmActions} / {@code EnableAlarmActions}.
 *
 * <p>It refuses what CloudWatch refuses ({@link PutMetricDataRules}), with CloudWatch's error shape on this protocol:
 * HTTP 400, the Smithy shape id in {@code __type} and the service's AWS Query error code in the
 * {@code x-amzn-query-error} header (CloudWatch is {@code @awsQueryCompatible}), which is how the SDK knows to throw
 * {@code InvalidParameterValueException} / {@code MissingRequiredParameterException}.
 */
public final class CloudWatchStandIn implements StandIn {
    static final String PATH_PREFIX = "/service/GraniteServiceVersion20100801/operation/";
    static final String CBOR = "application/cbor";

    /** One datum of a PutMetricData call. */
    public record Datum(String name, Map<String, String> dimensions, double value, String unit, Instant timestamp) {
        /** {@code name{dimensions} = value unit}, e.g. {@code DesiredTasks{Tier=small} = 3 Count}. */
        public String describe() {
            String number = value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value)
                    : Double.toString(value);
            return name + dimensions + " = " + number + (unit == null ? "" : " " + unit);
        }
    }

    /** One PutMetricData call. */
    public record PutCall(String namespace, List<Datum> data) {
        /** {@code PutMetricData namespace: datum, datum}. */
        public String describe() {
            return "PutMetricData " + namespace + ": "
                    + data.stream().map(Datum::describe).collect(Collectors.joining(", "));
        }
    }

    /** A stored datapoint. */
    public record Point(Instant timestamp, double value) {
    }

    /** A scripted metric alarm: whether its actions are enabled, and its state (OK, ALARM, INSUFFICIENT_DATA). */
    public record AlarmState(boolean actionsEnabled, String state) {
    }

    private static final CBORMapper MAPPER = new CBORMapper();

    private final HttpServer server;
    private final Map<String, List<Point>> series = new ConcurrentHashMap<>();
    private final List<PutCall> puts = new CopyOnWriteArrayList<>();
    private final List<JsonNode> metricDataQueries = new CopyOnWriteArrayList<>();
    private final Map<String, AlarmState> alarms = new ConcurrentHashMap<>();
    private volatile boolean failGetMetricData;
    private volatile Consumer<PutCall> listener = call -> { };

    /** Starts the stand-in on a free loopback port. */
    public CloudWatchStandIn() throws IOException {
        server = StandInHttp.start(this::handle);
    }

    @Override
    public URI endpoint() {
        return StandInHttp.endpoint(server);
    }

    /** Datapoints of {@code namespace/metric} with exactly these dimensions. */
    public void setSeries(String namespace, String metric, Map<String, String> dimensions, List<Point> points) {
        series.put(seriesKey(namespace, metric, dimensions), List.copyOf(points));
    }

    public void failGetMetricData(boolean fail) {
        failGetMetricData = fail;
    }

    /** Called with each PutMetricData call, after it is recorded. */
    public void onPut(Consumer<PutCall> listener) {
        this.listener = listener;
    }

    public List<PutCall> puts() {
        return List.copyOf(puts);
    }

    /** GetMetricData request bodies received (decoded), in order. */
    public List<JsonNode> getMetricDataRequests() {
        return List.copyOf(metricDataQueries);
    }

    /** An alarm {@code DescribeAlarms} knows, as the CDK app would have created it. */
    public void setAlarm(String name, boolean actionsEnabled, String state) {
        alarms.put(name, new AlarmState(actionsEnabled, state));
    }

    /** The scripted alarm's current switch and state, if it exists. */
    public Optional<AlarmState> alarm(String name) {
        return Optional.ofNullable(alarms.get(name));
    }

    public void reset() {
        alarms.clear();
        series.clear();
        puts.clear();
        metricDataQueries.clear();
        failGetMetricData = false;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!"POST".equals(exchange.getRequestMethod()) || !path.startsWith(PATH_PREFIX)
                    || !"rpc-v2-cbor".equals(exchange.getRequestHeaders().getFirst("smithy-protocol"))
                    || !CBOR.equals(exchange.getRequestHeaders().getFirst("Content-Type"))) {
                error(exchange, 400, "SerializationException", "expected a Smithy RPC v2 CBOR request");
                return;
            }
            if (!StandInHttp.signedFor(exchange, "monitoring")) {
                error(exchange, 403, "IncompleteSignature", "request is not SigV4-signed for monitoring");
                return;
            }
            byte[] body = StandInHttp.body(exchange);
            JsonNode request = body.length == 0 ? MAPPER.createObjectNode() : MAPPER.readTree(body);
            String operation = path.substring(PATH_PREFIX.length());
            if ("PutMetricData".equals(operation)) {
                Optional<PutMetricDataRules.Violation> violation = PutMetricDataRules.check(request);
                if (violation.isPresent()) {
                    queryError(exchange, violation.get());
                    return;
                }
                PutCall call = putCall(request);
                puts.add(call);
                listener.accept(call);
                ok(exchange, new ByteArrayOutputStream());
            } else if ("GetMetricData".equals(operation)) {
                getMetricData(exchange, request);
            } else if ("DescribeAlarms".equals(operation)) {
                describeAlarms(exchange, request);
            } else if ("DisableAlarmActions".equals(operation) || "EnableAlarmActions".equals(operation)) {
                boolean enable = "EnableAlarmActions".equals(operation);
                request.path("AlarmNames").forEach(n -> alarms.computeIfPresent(n.asText(),
                        (name, a) -> new AlarmState(enable, a.state())));
                ok(exchange, new ByteArrayOutputStream());
            } else {
                error(exchange, 400, "UnknownOperationException", "unsupported operation " + operation);
            }
        }
    }

    /** DescribeAlarms by AlarmNames: the scripted alarms among them, as MetricAlarms. */
    private void describeAlarms(HttpExchange exchange, JsonNode request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CBORGenerator g = new CBORFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("MetricAlarms");
            for (JsonNode name : request.path("AlarmNames")) {
                AlarmState alarm = alarms.get(name.asText());
                if (alarm != null) {
                    g.writeStartObject();
                    g.writeStringField("AlarmName", name.asText());
                    g.writeBooleanField("ActionsEnabled", alarm.actionsEnabled());
                    g.writeStringField("StateValue", alarm.state());
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        ok(exchange, out);
    }

    private static PutCall putCall(JsonNode request) {
        List<Datum> data = new ArrayList<>();
        for (JsonNode datum : request.path("MetricData")) {
            Map<String, String> dimensions = new TreeMap<>();
            datum.path("Dimensions").forEach(d -> dimensions.put(d.path("Name").asText(), d.path("Value").asText()));
            data.add(new Datum(datum.path("MetricName").asText(), dimensions, datum.path("Value").asDouble(),
                    datum.path("Unit").asText(null), epoch(datum.get("Timestamp"))));
        }
        return new PutCall(request.path("Namespace").asText(), data);
    }

    private void getMetricData(HttpExchange exchange, JsonNode request) throws IOException {
        metricDataQueries.add(request);
        if (failGetMetricData) {
            error(exchange, 500, "InternalServiceError", "injected failure");
            return;
        }
        Instant start = epoch(request.get("StartTime"));
        Instant end = epoch(request.get("EndTime"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CBORGenerator g = new CBORFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("MetricDataResults");
            for (JsonNode query : request.path("MetricDataQueries")) {
                JsonNode metric = query.path("MetricStat").path("Metric");
                Map<String, String> dimensions = new TreeMap<>();
                metric.path("Dimensions").forEach(d -> dimensions.put(d.path("Name").asText(),
                        d.path("Value").asText()));
                List<Point> points = new ArrayList<>(series.getOrDefault(seriesKey(metric.path("Namespace").asText(),
                        metric.path("MetricName").asText(), dimensions), List.of()));
                points.removeIf(p -> start != null && p.timestamp().isBefore(start)
                        || end != null && !p.timestamp().isBefore(end));
                points.sort(Comparator.comparing(Point::timestamp).reversed());
                writeResult(g, query.path("Id").asText(), metric.path("MetricName").asText(), points);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("Messages");
            g.writeEndArray();
            g.writeEndObject();
        }
        ok(exchange, out);
    }

    private static void writeResult(CBORGenerator g, String id, String label, List<Point> points) throws IOException {
        g.writeStartObject();
        g.writeStringField("Id", id);
        g.writeStringField("Label", label);
        g.writeArrayFieldStart("Timestamps");
        for (Point point : points) {
            g.writeTag(1);
            g.writeNumber(point.timestamp().getEpochSecond());
        }
        g.writeEndArray();
        g.writeArrayFieldStart("Values");
        for (Point point : points) {
            g.writeNumber(point.value());
        }
        g.writeEndArray();
        g.writeStringField("StatusCode", "Complete");
        g.writeEndObject();
    }

    /** A CBOR timestamp as read into a tree: tag 1 is dropped, the epoch seconds (integer or float) remain. */
    private static Instant epoch(JsonNode node) {
        if (node == null || !node.isNumber()) {
            return null;
        }
        double seconds = node.asDouble();
        long whole = (long) Math.floor(seconds);
        return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1_000_000_000L));
    }

    private static String seriesKey(String namespace, String metric, Map<String, String> dimensions) {
        return namespace + "|" + metric + "|" + new TreeMap<>(dimensions);
    }

    private static void ok(HttpExchange exchange, ByteArrayOutputStream cborBody) throws IOException {
        byte[] body = cborBody.size() == 0 ? MAPPER.writeValueAsBytes(Map.of()) : cborBody.toByteArray();
        exchange.getResponseHeaders().set("smithy-protocol", "rpc-v2-cbor");
        StandInHttp.respond(exchange, 200, CBOR, body);
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        exchange.getResponseHeaders().set("smithy-protocol", "rpc-v2-cbor");
        StandInHttp.respond(exchange, status, CBOR, MAPPER.writeValueAsBytes(Map.of("__type", type,
                "message", message)));
    }

    /** A modeled client error: the shape id in {@code __type}, the AWS Query code in {@code x-amzn-query-error}. */
    private static void queryError(HttpExchange exchange, PutMetricDataRules.Violation violation) throws IOException {
        exchange.getResponseHeaders().set("smithy-protocol", "rpc-v2-cbor");
        exchange.getResponseHeaders().set("x-amzn-query-error", violation.queryCode() + ";Sender");
        StandInHttp.respond(exchange, 400, CBOR, MAPPER.writeValueAsBytes(Map.of(
                "__type", "com.amazonaws.cloudwatch#" + violation.shape(), "message", violation.message())));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
