package io.gpupipe.cdk;

import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentTier;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentType;
import software.amazon.awscdk.services.applicationautoscaling.MetricAggregationType;
import software.amazon.awscdk.services.applicationautoscaling.ScalableTarget;
import software.amazon.awscdk.services.applicationautoscaling.ServiceNamespace;
import software.amazon.awscdk.services.applicationautoscaling.StepScalingAction;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.ApplicationScalingAction;
import software.amazon.awscdk.services.ecs.FargateService;
import software.constructs.Construct;

/**
 * Application Auto Scaling of a tier's service from the scaling-metric function's DesiredTasks value (min 0, max
 * the SAM stack's max-tasks export, the same ceiling the scaling metric clamps to). DesiredTasks is a target count,
 * not a load ratio, so target tracking (which steers a ratio towards a set point) does not fit; instead two
 * step-scaling policies act on the gap "DesiredTasks − ServiceDesiredTasks", both published by the function at the
 * same tick:
 * <ul>
 *   <li>scale out fast: gap ≥ 1 for one minute adds the whole gap at once (60 s cooldown);</li>
 *   <li>scale in slowly: gap ≤ −1 for {@code scaleInAfter} minutes in a row removes one task (cooldown
 *       {@code scaleInAfter}).</li>
 * </ul>
 * Missing data (the function did not run) changes nothing.
 */
public class TierScaling extends Construct {
    static final Duration SCALE_OUT_COOLDOWN = Duration.seconds(60);

    private final ScalableTarget target;
    private final Alarm scaleOutAlarm;
    private final Alarm scaleInAlarm;

    public TierScaling(Construct scope, String id, TierSpec spec, SamExports sam, String clusterName,
                       FargateService service) {
        super(scope, id);
        target = ScalableTarget.Builder.create(this, "TaskCount")
                .serviceNamespace(ServiceNamespace.ECS)
                .scalableDimension("ecs:service:DesiredCount")
                .resourceId("service/" + clusterName + "/" + service.getServiceName())
                .minCapacity(0)
                .maxCapacity(Token.asNumber(sam.maxTasks(spec.tier())))
                .build();
        MathExpression gap = GpupipeMetrics.scalingGap(sam.metricNamespace(), spec.tier());
        String tier = spec.tier().wireName();

        StepScalingAction out = StepScalingAction.Builder.create(this, "ScaleOut")
                .scalingTarget(target)
                .adjustmentType(AdjustmentType.CHANGE_IN_CAPACITY)
                .metricAggregationType(MetricAggregationType.MAXIMUM)
                .cooldown(SCALE_OUT_COOLDOWN)
                .build();
        // Bounds are relative to the threshold 1: a gap in [1, 2) adds 1, [2, 3) adds 2, …, >= step adds step;
        // Application Auto Scaling never goes above the target's MaxCapacity.
        int step = spec.maxScaleOutStep();
        for (int add = 1; add < step; add++) {
            out.addAdjustment(AdjustmentTier.builder().lowerBound(add - 1).upperBound(add).adjustment(add).build());
        }
        out.addAdjustment(AdjustmentTier.builder().lowerBound(step - 1).adjustment(step).build());
        scaleOutAlarm = gap.createAlarm(this, "ScaleOutAlarm", CreateAlarmOptions.builder()
                .alarmDescription("gpupipe " + tier + ": the scaling metric wants more tasks than the service has")
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .threshold(1)
                .evaluationPeriods(1)
                .datapointsToAlarm(1)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build());
        scaleOutAlarm.addAlarmAction(new ApplicationScalingAction(out));

        int inMinutes = (int) spec.scaleInAfter().toMinutes();
        StepScalingAction in = StepScalingAction.Builder.create(this, "ScaleIn")
                .scalingTarget(target)
                .adjustmentType(AdjustmentType.CHANGE_IN_CAPACITY)
                .metricAggregationType(MetricAggregationType.MAXIMUM)
                .cooldown(Duration.minutes(inMinutes))
                .build();
        in.addAdjustment(AdjustmentTier.builder().upperBound(0).adjustment(-1).build());
        scaleInAlarm = gap.createAlarm(this, "ScaleInAlarm", CreateAlarmOptions.builder()
                .alarmDescription("gpupipe " + tier + ": the scaling metric has wanted fewer tasks for " + inMinutes
                        + " minutes")
                .comparisonOperator(ComparisonOperator.LESS_THAN_OR_EQUAL_TO_THRESHOLD)
                .threshold(-1)
                .evaluationPeriods(inMinutes)
                .datapointsToAlarm(inMinutes)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build());
        scaleInAlarm.addAlarmAction(new ApplicationScalingAction(in));
    }

    public ScalableTarget getTarget() {
        return target;
    }

    public Alarm getScaleOutAlarm() {
        return scaleOutAlarm;
    }

    public Alarm getScaleInAlarm() {
        return scaleInAlarm;
    }
}
