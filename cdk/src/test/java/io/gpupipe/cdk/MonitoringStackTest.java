package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.observability.JobMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class MonitoringStackTest {
    private static Template monitoring;

    @BeforeAll
    static void synthesize() {
        monitoring = SynthesizedApp.get().monitoring;
    }

    @Test
    void gpuAlarms_shouldWatchEachTierService_whenThresholdsFromSeeds() {
        // then: per tier temperature > 90, XID > 0, memory > 85 (warning) and > 95 (critical)
        for (String tier : List.of("small", "large", "speech")) {
            Map<String, Object> service = Map.of("Name", "ServiceName",
                    "Value", Map.of("Fn::ImportValue", "gpupipe-service-name-" + tier));
            assertAlarm("TaskGPUTemperature", 90, service);
            assertAlarm("TaskGPURestartAppXidCount", 0, service);
            assertAlarm("TaskGPUMemoryUtilization", 85, service);
            assertAlarm("TaskGPUMemoryUtilization", 95, service);
        }
    }

    @Test
    void dlqAlarm_shouldFireOnAnyMessage_whenSynthesized() {
        // then
        monitoring.hasResourceProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                "Namespace", "AWS/SQS",
                "MetricName", "ApproximateNumberOfMessagesVisible",
                "Dimensions", List.of(Map.of("Name", "QueueName", "Value", Map.of("Fn::ImportValue",
                        "gpupipe-dlq-name"))),
                "Threshold", 0,
                "ComparisonOperator", "GreaterThanThreshold")));
    }

    @Test
    void queueAgeAlarms_shouldWatchEachTierQueueAndTheDlq_whenJobsWaitTooLong() {
        // then: a job waiting an hour means its tier is not scaling out, days before SQS would expire it
        for (String tier : List.of("small", "large", "speech")) {
            assertQueueAgeAlarm("gpupipe-queue-name-" + tier, 3600);
        }
        // the dead-letter handler settles a readable message in seconds: older ones are kept, unreadable ones
        assertQueueAgeAlarm("gpupipe-dlq-name", 900);
    }

    @Test
    void alarms_shouldNotifyTheSamAlarmTopicAndTolerateZeroTasks_whenAnyFires() {
        // then
        // six per tier (GPU temperature, XID, memory warning and critical, queue age, p99 latency), two on the DLQ
        monitoring.resourceCountIs("AWS::CloudWatch::Alarm", 6 * Tiers.defaults().size() + 2);
        monitoring.allResourcesProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                "AlarmActions", List.of(Map.of("Fn::ImportValue", "gpupipe-alarm-topic-arn")),
                "TreatMissingData", "notBreaching")));
    }

    @Test
    void dashboard_shouldHaveRoutingTierAndHardwareSections_whenSynthesized() {
        // when
        String body = monitoring.findResources("AWS::CloudWatch::Dashboard").values().stream()
                .map(d -> String.valueOf(properties(d).get("DashboardBody")))
                .findFirst().orElseThrow();

        // then
        assertThat(body).contains("## Routing", "## Tier small", "## Tier large", "## GPU hardware",
                "JobsRouted", "DesiredTasks", "RunningTasks", "TaskGPUTemperature", "TaskGPUPowerDraw",
                "ApproximateNumberOfMessagesVisible");
    }

    @Test
    void latencyAlarms_shouldFireOnP99SubmitToResultAboveEachTiersObjective_inSamsNamespace() {
        for (TierDefinition tier : TierCatalogue.bundled().tiers()) {
            // cold start (model load grace) plus model timeout: small 10 + 5 min, large 20 + 10 min
            long threshold = tier.modelLoadGrace().plus(tier.modelTimeout()).toMillis();
            monitoring.hasResourceProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                    "Namespace", Map.of("Fn::ImportValue", "gpupipe-metric-namespace"),
                    "MetricName", JobMetrics.SUBMIT_TO_RESULT_MS,
                    "ExtendedStatistic", "p99",
                    "Period", 300,
                    "Dimensions", List.of(Map.of("Name", "Tier", "Value", tier.tier().wireName())),
                    "Threshold", threshold,
                    "ComparisonOperator", "GreaterThanThreshold")));
        }
        assertThat(JobMetrics.p99SubmitToResultObjective(TierCatalogue.bundled().get(Tier.of("small"))))
                .isEqualTo(java.time.Duration.ofMinutes(15));
    }

    @Test
    void dashboard_shouldPlotP50P95P99OfEachJobMetricPerTier_fromSamsNamespace() {
        JsonNode body = dashboardBody();
        List<String> metrics = new ArrayList<>();
        body.path("widgets").forEach(w -> w.at("/properties/metrics").forEach(m -> metrics.add(m.toString())));
        for (String tier : List.of("small", "large", "speech")) {
            for (String metric : List.of(JobMetrics.SUBMIT_TO_RESULT_MS, JobMetrics.QUEUE_WAIT_MS,
                    JobMetrics.INFERENCE_MS, JobMetrics.TOKENS_PER_SECOND, JobMetrics.SUBMIT_LATENCY_MS)) {
                for (String percentile : List.of("p50", "p95", "p99")) {
                    assertThat(metrics).as(tier + " " + metric + " " + percentile).anySatisfy(m -> assertThat(m)
                            .contains("\"" + metric + "\"", "\"Tier\",\"" + tier + "\"",
                                    "\"stat\":\"" + percentile + "\""));
                }
            }
        }
    }

    /** The dashboard body with its Fn::Join resolved to the text CloudWatch receives (imports as placeholders). */
    private static JsonNode dashboardBody() {
        Object body = monitoring.findResources("AWS::CloudWatch::Dashboard").values().stream()
                .map(d -> properties(d).get("DashboardBody")).findFirst().orElseThrow();
        StringBuilder text = new StringBuilder();
        JsonNode join = JobJson.mapper().valueToTree(body).path("Fn::Join").get(1);
        join.forEach(part -> text.append(part.isTextual() ? part.asText() : "IMPORTED"));
        return JobJson.read(text.toString(), JsonNode.class);
    }

    private static void assertQueueAgeAlarm(String queueNameExport, int thresholdSeconds) {
        monitoring.hasResourceProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                "Namespace", "AWS/SQS",
                "MetricName", "ApproximateAgeOfOldestMessage",
                "Dimensions", List.of(Map.of("Name", "QueueName", "Value", Map.of("Fn::ImportValue",
                        queueNameExport))),
                "Threshold", thresholdSeconds,
                "ComparisonOperator", "GreaterThanThreshold")));
    }

    private static void assertAlarm(String metric, int threshold, Map<String, Object> serviceDimension) {
        monitoring.hasResourceProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                "Namespace", "ECS/ContainerInsights",
                "MetricName", metric,
                "Threshold", threshold,
                "ComparisonOperator", "GreaterThanThreshold",
                "Dimensions", Match.arrayWith(List.of(serviceDimension)))));
    }
}
