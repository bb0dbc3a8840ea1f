package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

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
        // five per tier (GPU temperature, XID, memory warning and critical, queue age) and two on the DLQ
        monitoring.resourceCountIs("AWS::CloudWatch::Alarm", 5 * Tiers.defaults().size() + 2);
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
