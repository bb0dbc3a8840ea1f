package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.cloudwatch.Alarm;

/**
 * The serverless side's alarms (sam-template.yaml) on what the GPU side's cannot see: router errors and throttles,
 * the API's 5xx, a failing scaling function, classifier fallbacks and the callback-retry queue; and every alarm of
 * both sides, read from the templates, named in docs/operations.md's alarm table with a runbook that exists, so an
 * alarm added without one fails here.
 */
class AlarmsAndRunbooksTest {
    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    private static Template sam;
    private static String operations;

    @BeforeAll
    static void load() throws IOException {
        sam = SamTemplateTest.include();
        operations = Files.readString(OPERATIONS);
    }

    @Test
    void routerAlarms_shouldFireOnAnyErrorOrThrottleOfTheRouterFunction() {
        assertAlarm("RouterErrorsAlarm", "AWS/Lambda", "Errors", "FunctionName", "RouterFunction", 0);
        assertAlarm("RouterThrottlesAlarm", "AWS/Lambda", "Throttles", "FunctionName", "RouterFunction", 0);
    }

    @Test
    void apiAlarm_shouldFireOnAnyServerErrorTheHttpApiAnswers() {
        assertAlarm("Api5xxAlarm", "AWS/ApiGateway", "5xx", "ApiId", "InferenceApi", 0);
    }

    @Test
    void scalingFunctionAlarm_shouldFireWithinTenMinutesOfFailingTicks_notAfterAnHourOfQueueAge() {
        Map<String, Object> alarm = assertAlarm("ScalingFunctionErrorsAlarm", "AWS/Lambda", "Errors", "FunctionName",
                "ScalingMetricFunction", 0);
        int periods = ((Number) alarm.get("EvaluationPeriods")).intValue();
        assertThat(periods * ((Number) alarm.get("Period")).intValue())
                .isLessThan(MonitoringStack.QUEUE_AGE_ALARM_SECONDS).isLessThanOrEqualTo(600);
    }

    @Test
    void scalingTierAlarm_shouldCountTheFunctionsPerTierFailures_whichLeaveTheInvocationSucceeding() {
        // the metric filter counts the function's "scaling-metric-failed" lines (ScalingMetricService)
        Map<String, Object> filter = properties(sam.findResources("AWS::Logs::MetricFilter")
                .get("ScalingTierFailuresMetric"));
        assertThat(filter).containsEntry("FilterPattern", "{ $.event = \"scaling-metric-failed\" }");
        assertThat(String.valueOf(filter.get("LogGroupName"))).contains("ScalingMetricLogs");
        assertThat(String.valueOf(filter.get("MetricTransformations"))).contains("MetricName=ScalingTierFailures");
        Map<String, Object> alarm = properties(sam.findResources("AWS::CloudWatch::Alarm")
                .get("ScalingTierFailuresAlarm"));
        assertThat(alarm).containsEntry("MetricName", "ScalingTierFailures")
                .containsEntry("Namespace", Map.of("Ref", "MetricNamespace"))
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("AlarmActions", List.of(Map.of("Ref", "AlarmTopic")));
        assertThat(((Number) alarm.get("Threshold")).intValue()).isZero();
    }

    @Test
    void classifierAlarm_shouldWatchTheRoutersFallbackMetric_onlyWhenBedrockClassifies() {
        Map<String, Object> alarm = assertAlarm("ClassifierFallbacksAlarm", null, "ClassifierFallbacks", "Classifier",
                "bedrock", 0);
        assertThat(alarm).containsEntry("Namespace", Map.of("Ref", "MetricNamespace"));
        assertThat(sam.findResources("AWS::CloudWatch::Alarm").get("ClassifierFallbacksAlarm"))
                .containsEntry("Condition", "UseBedrock");
    }

    @Test
    void callbackRetryAlarms_shouldWatchTheRetryQueuesAgeAndDepth() {
        String queue = "CallbackRetryQueue";
        assertAlarm("CallbackRetryQueueAgeAlarm", "AWS/SQS", "ApproximateAgeOfOldestMessage", "QueueName", queue, 1800);
        assertAlarm("CallbackRetryQueueDepthAlarm", "AWS/SQS", "ApproximateNumberOfMessagesDelayed", "QueueName", queue,
                100);
    }

    @Test
    void callbackSecretArn_shouldBeAnOutput_withTheCommandThatReadsIt() {
        assertThat(sam.findOutputs("CallbackSecretArn").get("CallbackSecretArn"))
                .containsEntry("Value", Map.of("Ref", "CallbackSecret"));
        assertThat(String.valueOf(sam.findOutputs("CallbackSecretArn").get("CallbackSecretArn").get("Description")))
                .contains("aws secretsmanager get-secret-value");
    }

    @Test
    void everyAlarmOfBothSides_shouldBeInTheAlarmTableOfOperations_withARunbookThatExists() {
        // given every alarm name: the SAM template's logical ids, the monitoring stack's ids with <tier> for the tier
        List<String> alarms = new ArrayList<>(sam.findResources("AWS::CloudWatch::Alarm").keySet());
        for (Alarm alarm : SynthesizedApp.get().stacks.monitoring().getAlarms()) {
            String id = alarm.getNode().getId();
            for (TierSpec tier : Tiers.defaults()) {
                id = id.replaceAll("-" + tier.tier().wireName() + "$", "-<tier>");
            }
            if (!alarms.contains(id)) {
                alarms.add(id);
            }
        }
        Map<String, String> runbooks = alarmTable();

        // then
        assertThat(alarms).hasSizeGreaterThan(15);
        for (String alarm : alarms) {
            assertThat(runbooks).as("docs/operations.md alarm table row for " + alarm).containsKey(alarm);
            String runbook = runbooks.get(alarm);
            assertThat(runbook).as("runbook of " + alarm).isNotBlank();
            Matcher link = Pattern.compile("\\]\\(#([^)]+)\\)").matcher(runbook);
            while (link.find()) {
                assertThat(anchors()).as("runbook link #" + link.group(1) + " of " + alarm).contains(link.group(1));
            }
        }
        assertThat(runbooks.keySet()).as("documented alarms that no template defines").allMatch(alarms::contains);
    }

    @Test
    void queueAgeAndP99Runbook_shouldCoverEveryReasonATierDoesNotServe() {
        // given the section the QueueAge and p99 rows link to
        String queueAge = alarmTable().get("QueueAge-<tier>");
        assertThat(alarmTable().get("SubmitToResultP99-<tier>")).isEqualTo(queueAge);
        String anchor = queueAge.replaceAll(".*\\]\\(#([^)]+)\\).*", "$1");
        String section = section(anchor).orElseThrow();

        // then it leads to each cause
        assertThat(section).contains("service quota").contains("get-service-quota").contains("L-DB2E81BA")
                .contains("ScalingFunctionErrorsAlarm").contains("-to-zero").contains("enable-alarm-actions")
                .contains("(#a-worker-keeps-restarting)");
    }

    /**
     * Asserts a plain alarm on one dimension notifying the alarm topic; returns its properties. The dimension's value
     * is {@code dimensionValue} or a reference to that resource (CfnInclude renames references to the resources it
     * keeps as written, such as the functions: TemplateRouterFunction1234ABCD).
     */
    private static Map<String, Object> assertAlarm(String id, String namespace, String metric, String dimension,
                                                   String dimensionValue, double threshold) {
        Map<String, Map<String, Object>> alarms = sam.findResources("AWS::CloudWatch::Alarm");
        assertThat(alarms).as("alarm " + id).containsKey(id);
        Map<String, Object> alarm = properties(alarms.get(id));
        if (namespace != null) {
            assertThat(alarm).containsEntry("Namespace", namespace);
        }
        assertThat(alarm).containsEntry("MetricName", metric)
                .containsEntry("ComparisonOperator", "GreaterThanThreshold")
                .containsEntry("TreatMissingData", "notBreaching")
                .containsEntry("AlarmActions", List.of(Map.of("Ref", "AlarmTopic")));
        List<Object> dimensions = TemplateJson.list(alarm.get("Dimensions"));
        assertThat(dimensions).as(id + " dimensions").hasSize(1);
        assertThat(TemplateJson.map(dimensions.get(0))).containsEntry("Name", dimension);
        Object value = TemplateJson.map(dimensions.get(0)).get("Value");
        if (value instanceof Map<?, ?> reference) {
            String target = String.valueOf(reference.values().iterator().next());
            assertThat(target).as(id + " dimension value")
                    .matches("(Template)?" + dimensionValue + "([0-9A-F]{8})?(\\.QueueName)?");
        } else {
            assertThat(value).as(id + " dimension value").isEqualTo(dimensionValue);
        }
        assertThat(((Number) alarm.get("Threshold")).doubleValue()).as(id + " threshold").isEqualTo(threshold);
        return alarm;
    }

    /** The "## Alarms" table: alarm name (each backquoted name in the first cell) to its runbook cell. */
    private static Map<String, String> alarmTable() {
        String alarmsSection = section("alarms").orElseThrow();
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : alarmsSection.split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            Matcher name = Pattern.compile("`([^`]+)`").matcher(cells[1]);
            while (name.find()) {
                rows.put(name.group(1), cells[cells.length - 1].strip());
            }
        }
        return rows;
    }

    /** The text under the heading whose GitHub anchor is {@code anchor}, up to the next heading of its level. */
    private static Optional<String> section(String anchor) {
        String[] lines = operations.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("#") && anchor(lines[i]).equals(anchor)) {
                int level = level(lines[i]);
                StringBuilder text = new StringBuilder();
                for (int j = i + 1; j < lines.length && !(lines[j].startsWith("#") && level(lines[j]) <= level); j++) {
                    text.append(lines[j]).append('\n');
                }
                return Optional.of(text.toString());
            }
        }
        return Optional.empty();
    }

    private static int level(String heading) {
        int level = 0;
        while (level < heading.length() && heading.charAt(level) == '#') {
            level++;
        }
        return level;
    }

    private static List<String> anchors() {
        return operations.lines().filter(l -> l.startsWith("#")).map(AlarmsAndRunbooksTest::anchor).toList();
    }

    /** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
    private static String anchor(String heading) {
        return heading.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
    }
}
