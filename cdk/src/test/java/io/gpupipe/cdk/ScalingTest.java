package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.scaling.ScalingLadder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class ScalingTest {
    private static Template gpu;

    @BeforeAll
    static void synthesize() {
        gpu = SynthesizedApp.get().gpu;
    }

    @Test
    void scalableTargets_shouldRangeFromZeroToTheSamStacksTierMax_whenSynthesized() {
        // then: the same ceiling the scaling-metric function clamps to
        gpu.resourceCountIs("AWS::ApplicationAutoScaling::ScalableTarget", Tiers.defaults().size());
        for (String tier : List.of("small", "large")) {
            gpu.hasResourceProperties("AWS::ApplicationAutoScaling::ScalableTarget", Match.objectLike(Map.of(
                    "MinCapacity", 0, "MaxCapacity", Map.of("Fn::ImportValue", "gpupipe-max-tasks-" + tier),
                    "ScalableDimension", "ecs:service:DesiredCount", "ServiceNamespace", "ecs")));
        }
    }

    @Test
    void scaleOut_shouldAddTheWholeGapAfterOneMinute_whenScalingMetricWantsMore() {
        // when
        Map<String, Object> alarm = alarm("SmallTierScalingScaleOutAlarm");
        Map<String, Object> policy = policy("SmallTierScalingScaleOut");
        List<Object> steps = TemplateJson.list(policy.get("StepAdjustments"));

        // then: gap >= 1 for one 60 s period; steps +1 … +10 (the small tier's largest step) relative to 1
        assertThat(alarm).containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 1).containsEntry("EvaluationPeriods", 1);
        assertThat(alarm.get("Metrics").toString()).contains("wanted - current", "DesiredTasks",
                "ServiceDesiredTasks", "Tier");
        assertThat(policy).containsEntry("AdjustmentType", "ChangeInCapacity").containsEntry("Cooldown", 60);
        assertThat(steps).hasSize(Tiers.of("small").maxScaleOutStep());
        assertThat(steps.get(0)).isEqualTo(
                Map.of("MetricIntervalLowerBound", 0, "MetricIntervalUpperBound", 1, "ScalingAdjustment", 1));
        assertThat(steps.get(1)).isEqualTo(
                Map.of("MetricIntervalLowerBound", 1, "MetricIntervalUpperBound", 2, "ScalingAdjustment", 2));
        assertThat(steps.get(9)).isEqualTo(Map.of("MetricIntervalLowerBound", 9, "ScalingAdjustment", 10));
    }

    @Test
    void scaleIn_shouldRemoveOneTaskAfterTheTierWaitedLongEnough_whenScalingMetricWantsFewer() {
        // when
        Map<String, Object> smallAlarm = alarm("SmallTierScalingScaleInAlarm");
        Map<String, Object> largeAlarm = alarm("LargeTierScalingScaleInAlarm");
        Map<String, Object> largePolicy = policy("LargeTierScalingScaleIn");

        // then: 5 minutes (small) and 10 minutes (large) of gap <= -1 before one task goes
        assertThat(smallAlarm).containsEntry("Threshold", -1).containsEntry("EvaluationPeriods", 5)
                .containsEntry("DatapointsToAlarm", 5)
                .containsEntry("ComparisonOperator", "LessThanOrEqualToThreshold");
        assertThat(largeAlarm).containsEntry("EvaluationPeriods", 10).containsEntry("DatapointsToAlarm", 10);
        assertThat(largePolicy).containsEntry("Cooldown", 600);
        assertThat(largePolicy.get("StepAdjustments")).isEqualTo(List.of(
                Map.of("MetricIntervalUpperBound", 0, "ScalingAdjustment", -1)));
    }

    @Test
    void scaleIn_shouldNeverRemoveTheLastTask_whenTheMetricWantsZero() {
        // when
        Map<String, Object> alarm = alarm("SmallTierScalingScaleInAlarm");

        // then: a wanted 0 counts as 1, so only the to-zero alarm takes the service to 0
        assertThat(alarm.get("Metrics").toString()).contains(ScalingLadder.SCALE_IN_GAP_EXPRESSION);
    }

    @Test
    void toZero_shouldSetExactlyZero_afterFiveMinutesWithNothingWantedOrSent() {
        for (String tier : List.of("Small", "Large")) {
            // when
            Map<String, Object> alarm = alarm(tier + "TierScalingToZeroAlarm");
            Map<String, Object> policy = policy(tier + "TierScalingToZero");

            // then: one step to 0, whatever the count (10 tasks no longer take 50 minutes)
            assertThat(alarm).containsEntry("ComparisonOperator", "LessThanOrEqualToThreshold")
                    .containsEntry("Threshold", 0).containsEntry("EvaluationPeriods", 5)
                    .containsEntry("DatapointsToAlarm", 5).containsEntry("TreatMissingData", "notBreaching");
            assertThat(alarm.get("Metrics").toString()).contains(ScalingLadder.IDLE_EXPRESSION, "DesiredTasks",
                    "NumberOfMessagesSent", "AWS/SQS", "gpupipe-queue-name-" + tier.toLowerCase(), "Sum");
            assertThat(policy).containsEntry("AdjustmentType", "ExactCapacity");
            assertThat(policy.get("StepAdjustments")).isEqualTo(List.of(
                    Map.of("MetricIntervalUpperBound", 0, "ScalingAdjustment", 0)));
        }
    }

    @Test
    void warmWindows_shouldBeAbsent_byDefault() {
        gpu.findResources("AWS::ApplicationAutoScaling::ScalableTarget").values()
                .forEach(t -> assertThat(properties(t)).doesNotContainKey("ScheduledActions"));
    }

    @Test
    void scalingAlarms_shouldIgnoreMissingData_whenScalingMetricDidNotRun() {
        // then
        gpu.allResourcesProperties("AWS::CloudWatch::Alarm", Match.objectLike(Map.of(
                "TreatMissingData", "notBreaching")));
    }

    private static Map<String, Object> alarm(String prefix) {
        return only("AWS::CloudWatch::Alarm", prefix);
    }

    private static Map<String, Object> policy(String prefix) {
        return TemplateJson.map(only("AWS::ApplicationAutoScaling::ScalingPolicy", prefix)
                .get("StepScalingPolicyConfiguration"));
    }

    private static Map<String, Object> only(String type, String prefix) {
        List<Map<String, Object>> found = gpu.findResources(type).entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .map(e -> properties(e.getValue()))
                .toList();
        assertThat(found).hasSize(1);
        return found.get(0);
    }
}
