package io.gpupipe.cdk;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.scaling.TierWake;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a sample event could reach a function as the translated template wires it: an SQS batch from its event
 * source mapping (no more records than its BatchSize, from the queue it names), S3 records its bucket notification's
 * filters pass, an EventBridge schedule or rule match, or an API Gateway HTTP API (payload 2.0) request of one of its
 * routes, or a direct asynchronous Invoke by a function whose role may invoke it (the router's tier wake). An event
 * matching none of the function's sources is one it is never given.
 */
final class EventShapes {
    private EventShapes() {
    }

    /** Empty when {@code event} matches one of {@code function}'s sources; else why it matches none. */
    static List<String> check(String function, JsonNode event, JsonNode resources) {
        List<String> mismatches = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = resources.fields();
        while (it.hasNext()) {
            JsonNode resource = it.next().getValue();
            JsonNode properties = resource.path("Properties");
            String problem = switch (resource.get("Type").asText()) {
                case "AWS::Lambda::EventSourceMapping" -> targets(properties.get("FunctionName"), function)
                        ? sqs(event, properties) : null;
                case "AWS::S3::Bucket" -> s3(function, event, properties.path("NotificationConfiguration")
                        .path("LambdaConfigurations"));
                case "AWS::Events::Rule" -> targets(properties.get("Targets").get(0).get("Arn"), function)
                        ? eventBridge(event, properties) : null;
                case "AWS::ApiGatewayV2::Api" -> httpApi(function, event, properties.path("Body").path("paths"));
                case "AWS::IAM::Role" -> invokes(properties, function) ? directInvoke(event) : null;
                default -> null;
            };
            if (problem != null && problem.isEmpty()) {
                return List.of();
            }
            if (problem != null) {
                mismatches.add(problem);
            }
        }
        mismatches.add(0, "matches none of the sources " + function + " is given:");
        return mismatches;
    }

    /** True when the role (of another function) may invoke {@code function}: {@code lambda:InvokeFunction} on it. */
    private static boolean invokes(JsonNode role, String function) {
        for (JsonNode statement : role.findValues("Statement")) {
            for (JsonNode entry : statement.isArray() ? statement : List.of(statement)) {
                // a statement the template grants by condition (Fn::If [condition, statement, AWS::NoValue]) counts:
                // the sample must fit whenever the condition holds
                JsonNode one = entry.has("Fn::If") ? entry.get("Fn::If").get(1) : entry;
                if (one.path("Action").asText().equals("lambda:InvokeFunction")
                        && one.path("Resource").path("Fn::GetAtt").path(0).asText().equals(function)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The only payload a function invokes another with: the router's tier wake ({@link TierWake#toJson}). */
    private static String directInvoke(JsonNode event) {
        Optional<TierWake> wake = TierWake.from(event.path("source").asText(), event.path("detail-type").asText(),
                event.get("detail"), Instant.EPOCH);
        if (wake.isEmpty()) {
            return "direct invoke: not a tier wake (source " + TierWake.SOURCE + ", detail-type "
                    + TierWake.DETAIL_TYPE + ", detail.tier)";
        }
        return TierCatalogue.bundled().find(wake.get().tier().wireName()).isPresent() ? ""
                : "direct invoke: tier " + wake.get().tier().wireName() + " is not in the catalogue";
    }

    private static boolean targets(JsonNode reference, String function) {
        return reference != null && reference.has("Ref")
                && reference.get("Ref").asText().equals(function + "Aliaslive");
    }

    private static String sqs(JsonNode event, JsonNode mapping) {
        JsonNode records = event.path("Records");
        int batchSize = mapping.get("BatchSize").asInt();
        if (!records.isArray() || records.isEmpty() || records.size() > batchSize) {
            return "SQS: 1.." + batchSize + " records expected, got " + records.size();
        }
        String queue = mapping.get("EventSourceArn").get("Fn::GetAtt").get(0).asText();
        for (JsonNode record : records) {
            for (String field : List.of("messageId", "receiptHandle", "body", "md5OfBody", "awsRegion")) {
                if (!record.path(field).isTextual()) {
                    return "SQS: record without " + field;
                }
            }
            if (!"aws:sqs".equals(record.path("eventSource").asText())
                    || !record.path("attributes").has("ApproximateReceiveCount")) {
                return "SQS: record is not an SQS record (eventSource aws:sqs, attributes.ApproximateReceiveCount)";
            }
            // CloudFormation names a queue without QueueName <stack>-<logical id>-<suffix>
            if (!record.path("eventSourceARN").asText().matches("arn:aws:sqs:[a-z0-9-]+:\\d{12}:.*-" + queue
                    + "-.*")) {
                return "SQS: eventSourceARN " + record.path("eventSourceARN").asText() + " is not " + queue;
            }
        }
        return "";
    }

    private static String s3(String function, JsonNode event, JsonNode configurations) {
        List<JsonNode> mine = new ArrayList<>();
        configurations.forEach(c -> {
            if (targets(c.get("Function"), function)) {
                mine.add(c);
            }
        });
        if (mine.isEmpty()) {
            return null;
        }
        JsonNode records = event.path("Records");
        if (!records.isArray() || records.isEmpty()) {
            return "S3: no Records";
        }
        for (JsonNode record : records) {
            String key = record.path("s3").path("object").path("key").asText();
            if (!"aws:s3".equals(record.path("eventSource").asText())
                    || !record.path("eventName").asText().startsWith("ObjectCreated:")
                    || !record.path("s3").path("bucket").path("name").asText().startsWith("gpupipe-results")
                    || !record.path("s3").path("object").has("size")) {
                return "S3: record " + key + " is not an ObjectCreated record of the results bucket";
            }
            if (mine.stream().noneMatch(c -> passes(c, key))) {
                return "S3: no notification filter of " + function + " passes " + key;
            }
        }
        return "";
    }

    private static boolean passes(JsonNode configuration, String key) {
        for (JsonNode rule : configuration.get("Filter").get("S3Key").get("Rules")) {
            String value = rule.get("Value").asText();
            boolean ok = switch (rule.get("Name").asText()) {
                case "prefix" -> key.startsWith(value);
                case "suffix" -> key.endsWith(value);
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static String eventBridge(JsonNode event, JsonNode rule) {
        if (!"0".equals(event.path("version").asText()) || !event.path("resources").isArray()) {
            return "EventBridge: not an EventBridge event (version 0, resources)";
        }
        if (rule.has("ScheduleExpression")) {
            boolean scheduled = "aws.events".equals(event.path("source").asText())
                    && "Scheduled Event".equals(event.path("detail-type").asText())
                    && event.path("resources").path(0).asText().matches("arn:aws:events:.*:rule/.*");
            return scheduled ? "" : "EventBridge: not a Scheduled Event of a rule";
        }
        JsonNode pattern = rule.get("EventPattern");
        if (!contains(pattern.get("source"), event.path("source").asText())
                || !contains(pattern.get("detail-type"), event.path("detail-type").asText())) {
            return "EventBridge: source/detail-type " + event.path("source").asText() + "/"
                    + event.path("detail-type").asText() + " is not in the rule's pattern " + pattern.get("source")
                    + "/" + pattern.get("detail-type");
        }
        return event.path("detail").path("clusterArn").asText().matches("arn:aws:ecs:.*:cluster/.+") ? ""
                : "EventBridge: detail.clusterArn is not a cluster ARN";
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode item : array) {
            if (item.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static String httpApi(String function, JsonNode event, JsonNode paths) {
        List<String> routes = new ArrayList<>();
        paths.fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
            if (method.getValue().path("x-amazon-apigateway-integration").toString().contains(function)) {
                routes.add(method.getKey().toUpperCase(java.util.Locale.ROOT) + " " + path.getKey());
            }
        }));
        if (routes.isEmpty()) {
            return null;
        }
        String routeKey = event.path("routeKey").asText();
        if (!"2.0".equals(event.path("version").asText()) || !routes.contains(routeKey)) {
            return "HTTP API: version 2.0 and one of " + routes + " expected, got " + event.path("version") + " "
                    + routeKey;
        }
        JsonNode http = event.path("requestContext").path("http");
        String template = routeKey.substring(routeKey.indexOf(' ') + 1);
        boolean consistent = routeKey.equals(event.path("requestContext").path("routeKey").asText())
                && routeKey.startsWith(http.path("method").asText() + " ")
                && event.path("rawPath").asText().equals(http.path("path").asText())
                && event.path("rawPath").asText().matches(template.replaceAll("\\{[^/]+}", "[^/]+"));
        return consistent ? "" : "HTTP API: routeKey, requestContext.http and rawPath disagree for " + routeKey;
    }
}
