package io.gpupipe.localstack.sam;

import io.gpupipe.localstack.exception.StartupException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The functions of sam-template.yaml as the local stack runs them: each function's package, memory and timeout (the
 * JVM package's: {@code IsNative} is false locally), its SQS event sources with their batch sizes (SAM SQS events and
 * plain event source mappings on the function or its alias), and its S3 notification filters. Read from the template itself, so the local stack cannot drift from the deployment. The
 * CloudFormation short forms ({@code !Ref}, {@code !If} …) are read as their long forms, as the SAM translator's YAML
 * helper reads them.
 */
public final class SamTemplate {
    private final Map<String, Object> resources;

    private SamTemplate(Map<String, Object> resources) {
        this.resources = resources;
    }

    /** An SQS event source: the queue's logical id and how many messages one invocation gets. */
    public record SqsSource(String queue, int batchSize) {
    }

    /** An S3 notification's key filter. */
    public record S3Filter(String prefix, String suffix) {
        public boolean passes(String key) {
            return key.startsWith(prefix) && key.endsWith(suffix);
        }
    }

    /**
     * One function: its logical id, module (functions/{module}/target/function.zip), memory, timeout, sources, and
     * how often Lambda retries an asynchronous invocation that failed ({@code EventInvokeConfig}'s
     * MaximumRetryAttempts; Lambda's default is 2).
     */
    public record Function(String logicalId, String module, int memoryMiB, Duration timeout,
                           List<SqsSource> sqsSources, List<S3Filter> s3Filters, int asyncRetries) {
    }

    /** Lambda's retries of a failed asynchronous invocation when the function sets none. */
    public static final int DEFAULT_ASYNC_RETRIES = 2;

    /** Reads {@code repo}/sam-template.yaml. */
    public static SamTemplate read(Path repo) {
        Path file = repo.resolve("sam-template.yaml");
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new StartupException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    public static SamTemplate parse(String yaml) {
        Map<String, Object> template = new Yaml(new IntrinsicsConstructor()).load(yaml);
        return new SamTemplate((Map<String, Object>) template.get("Resources"));
    }

    /** The names of the template's parameters, in the template's order (DocumentationTest checks each is documented). */
    @SuppressWarnings("unchecked")
    public static List<String> parameterNames(String yaml) {
        Map<String, Object> template = new Yaml(new IntrinsicsConstructor()).load(yaml);
        return List.copyOf(((Map<String, Object>) template.getOrDefault("Parameters", Map.of())).keySet());
    }

    /** The function whose package is {@code functions/<module>/target/function.zip}. */
    public Function function(String module) {
        for (Map.Entry<String, Object> resource : resources.entrySet()) {
            Map<String, Object> body = map(resource.getValue());
            Map<String, Object> properties = map(body.get("Properties"));
            if ("AWS::Serverless::Function".equals(body.get("Type"))
                    && ("functions/" + module + "/target/function.zip").equals(properties.get("CodeUri"))) {
                return function(resource.getKey(), module, properties);
            }
        }
        throw new StartupException("sam-template.yaml has no function with CodeUri functions/" + module
                + "/target/function.zip");
    }

    private Function function(String logicalId, String module, Map<String, Object> properties) {
        List<SqsSource> sqs = new ArrayList<>();
        List<S3Filter> s3 = new ArrayList<>();
        for (Object event : map(properties.getOrDefault("Events", Map.of())).values()) {
            Map<String, Object> source = map(event);
            Map<String, Object> eventProperties = map(source.get("Properties"));
            switch (String.valueOf(source.get("Type"))) {
                case "SQS" -> sqs.add(new SqsSource(getAttResource(eventProperties.get("Queue")),
                        ((Number) eventProperties.getOrDefault("BatchSize", 10)).intValue()));
                case "S3" -> s3.add(filter(eventProperties));
                default -> {
                    // HTTP API routes, schedules and EventBridge rules: the facade and the metric schedule
                }
            }
        }
        for (Object resource : resources.values()) {
            Map<String, Object> body = map(resource);
            Map<String, Object> mapping = map(body.get("Properties"));
            Object target = map(mapping.get("FunctionName")).get("Ref");
            if ("AWS::Lambda::EventSourceMapping".equals(body.get("Type"))
                    && (logicalId.equals(target) || (logicalId + ".Alias").equals(target))) {
                sqs.add(new SqsSource(getAttResource(mapping.get("EventSourceArn")),
                        ((Number) mapping.getOrDefault("BatchSize", 10)).intValue()));
            }
        }
        int asyncRetries = ((Number) map(properties.get("EventInvokeConfig"))
                .getOrDefault("MaximumRetryAttempts", DEFAULT_ASYNC_RETRIES)).intValue();
        return new Function(logicalId, module, jvmValue(properties.get("MemorySize")),
                Duration.ofSeconds(jvmValue(properties.get("Timeout"))), List.copyOf(sqs), List.copyOf(s3),
                asyncRetries);
    }

    /** A number, or {@code !If [IsNative, native, jvm]}'s JVM branch (the local stack runs the JVM packages). */
    private static int jvmValue(Object value) {
        if (value instanceof Map<?, ?> intrinsic && intrinsic.get("Fn::If") instanceof List<?> branches
                && "IsNative".equals(branches.get(0))) {
            return ((Number) branches.get(2)).intValue();
        }
        return ((Number) value).intValue();
    }

    private static String getAttResource(Object value) {
        Object getAtt = map(value).get("Fn::GetAtt");
        return getAtt instanceof List<?> parts ? String.valueOf(parts.get(0))
                : String.valueOf(getAtt).substring(0, String.valueOf(getAtt).indexOf('.'));
    }

    private static S3Filter filter(Map<String, Object> properties) {
        String prefix = "";
        String suffix = "";
        Object rules = map(map(properties.getOrDefault("Filter", Map.of())).getOrDefault("S3Key", Map.of()))
                .getOrDefault("Rules", List.of());
        for (Object rule : (List<?>) rules) {
            Map<String, Object> r = map(rule);
            if ("prefix".equals(r.get("Name"))) {
                prefix = String.valueOf(r.get("Value"));
            } else if ("suffix".equals(r.get("Name"))) {
                suffix = String.valueOf(r.get("Value"));
            }
        }
        return new S3Filter(prefix, suffix);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** Reads {@code !Tag value} as {@code {"Fn::Tag": value}} ({@code Ref} and {@code Condition} without Fn::). */
    private static final class IntrinsicsConstructor extends SafeConstructor {
        IntrinsicsConstructor() {
            super(new LoaderOptions());
            this.yamlMultiConstructors.put("!", new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    String tag = node.getTag().getValue().substring(1);
                    String name = tag.equals("Ref") || tag.equals("Condition") ? tag : "Fn::" + tag;
                    Object value;
                    if (node instanceof ScalarNode scalar) {
                        value = tag.equals("GetAtt") ? List.of(scalar.getValue().split("\\.", 2))
                                : scalar.getValue();
                    } else if (node instanceof SequenceNode sequence) {
                        value = constructSequence(sequence);
                    } else {
                        value = constructMapping((MappingNode) node);
                    }
                    Map<String, Object> intrinsic = new LinkedHashMap<>();
                    intrinsic.put(name, value);
                    return intrinsic;
                }
            });
        }
    }
}
