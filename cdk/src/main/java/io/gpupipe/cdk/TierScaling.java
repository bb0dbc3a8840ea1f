package io.gpupipe.cdk;

import io.gpupipe.model.scaling.ScalingLadder;
import io.gpupipe.model.scaling.ScalingMetrics;
import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.model.scaling.WarmWindow;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.TimeZone;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentTier;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentType;
import software.amazon.awscdk.services.applicationautoscaling.MetricAggregationType;
import software.amazon.awscdk.services.applicationautoscaling.ScalableTarget;
import software.amazon.awscdk.services.applicationautoscaling.ScalingSchedule;
import software.amazon.awscdk.services.applicationautoscaling.Schedule;
import software.amazon.awscdk.services.applicationautoscaling.ServiceNamespace;
import software.amazon.awscdk.services.applicationautoscaling.StepScalingAction;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.ApplicationScalingAction;
import software.amazon.awscdk.services.ecs.BaseService;
import software.constructs.Construct;

/**
 * Application Auto Scaling of a tier's service from the scaling-metric function's DesiredTasks value (min 0, max
 * the SAM stack's max-tasks export, the same ceiling the scaling metric clamps to): the three alarms of the tier's
 * {@link ScalingLadder} (shared-model, the one definition the simulator replays too). DesiredTasks is a target
 * count, not a load ratio, so target tracking does not fit; step scaling acts on gaps instead:
 * <ul>
 *   <li>scale out: gap ≥ 1 for one minute adds the whole gap at once (60 s cooldown);</li>
 *   <li>scale in: gap (a wanted 0 counted as 1) ≤ −1 for {@code scaleInAfter} minutes removes one task;</li>
 *   <li>to zero: {@code idleToZero} minutes with nothing wanted and nothing sent to the queue set exactly 0.</li>
 * </ul>
 * CloudWatch re-invokes Auto Scaling actions every minute an alarm stays in ALARM ("Except for Auto Scaling actions,
 * the actions happen only on state transitions", CloudWatch user guide, Alarm actions), so each gap is re-read and
 * the cooldowns pace it. Missing data changes nothing. The to-zero alarm is named after the service ({@link
 * TierWake#toZeroAlarmName}): the router's wake switches its actions off until it is OK again. Context {@code <tier>WarmWindow} (e.g. {@code "MON-FRI
 * 08:00-18:00 Europe/Berlin 1"}) adds two scheduled actions raising and lowering the minimum; {@code
 * idleToZeroMinutes} (default 5) sets the idle period.
 */
public class TierScaling extends Construct {
    private static final String WANTED = "wanted";
    private static final String CURRENT = "current";
    private static final String SENT = "sent";

    private final ScalableTarget target;
    private final Alarm scaleOutAlarm;
    private final Alarm scaleInAlarm;
    private final Alarm toZeroAlarm;
    private final ScalingLadder ladder;

    public TierScaling(Construct scope, String id, TierSpec spec, SamExports sam, String clusterName,
                       BaseService service) {
        super(scope, id);
        String tier = spec.tier().wireName();
        ladder = ScalingLadder.of(spec.maxScaleOutStep(), spec.scaleInAfter(), idleToZero());
        target = ScalableTarget.Builder.create(this, "TaskCount")
                .serviceNamespace(ServiceNamespace.ECS)
                .scalableDimension("ecs:service:DesiredCount")
                .resourceId("service/" + clusterName + "/" + service.getServiceName())
                .minCapacity(0)
                .maxCapacity(Token.asNumber(sam.maxTasks(spec.tier())))
                .build();
        Map<String, IMetric> gapMetrics = Map.of(
                WANTED, GpupipeMetrics.tierMetric(sam.metricNamespace(), spec.tier(), ScalingMetrics.DESIRED_TASKS,
                        "Maximum"),
                CURRENT, GpupipeMetrics.tierMetric(sam.metricNamespace(), spec.tier(),
                        ScalingMetrics.SERVICE_DESIRED_TASKS, "Maximum"));

        StepScalingAction out = policy("ScaleOut", AdjustmentType.CHANGE_IN_CAPACITY, ladder.scaleOutCooldown());
        for (ScalingLadder.Step step : ladder.scaleOutSteps()) {
            AdjustmentTier.Builder tierStep = AdjustmentTier.builder().lowerBound(step.lowerBound())
                    .adjustment(step.adjustment());
            step.upperBound().ifPresent(tierStep::upperBound);
            out.addAdjustment(tierStep.build());
        }
        scaleOutAlarm = alarm("ScaleOutAlarm", null, GpupipeMetrics.scalingGap(sam.metricNamespace(), spec.tier()),
                ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD, ScalingLadder.SCALE_OUT_THRESHOLD, 1,
                "gpupipe " + tier + ": the scaling metric wants more tasks than the service has", out);

        int inMinutes = ladder.scaleInMinutes();
        StepScalingAction in = policy("ScaleIn", AdjustmentType.CHANGE_IN_CAPACITY, ladder.scaleInAfter());
        in.addAdjustment(AdjustmentTier.builder().upperBound(0).adjustment(ladder.scaleInAdjustment()).build());
        scaleInAlarm = alarm("ScaleInAlarm", null, expression(ScalingLadder.SCALE_IN_GAP_EXPRESSION, gapMetrics,
                        tier + " tasks wanted (at least 1) minus service desired count"),
                ComparisonOperator.LESS_THAN_OR_EQUAL_TO_THRESHOLD, ScalingLadder.SCALE_IN_THRESHOLD, inMinutes,
                "gpupipe " + tier + ": the scaling metric has wanted fewer (but some) tasks for " + inMinutes
                        + " minutes", in);

        int idleMinutes = ladder.idleMinutes();
        StepScalingAction zero = policy("ToZero", AdjustmentType.EXACT_CAPACITY, ladder.scaleOutCooldown());
        zero.addAdjustment(AdjustmentTier.builder().upperBound(0).adjustment(0).build());
        Map<String, IMetric> idleMetrics = Map.of(WANTED, gapMetrics.get(WANTED), SENT,
                GpupipeMetrics.queueMetric(sam.queueName(spec.tier()), "NumberOfMessagesSent")
                        .with(MetricOptions.builder().statistic("Sum").build()));
        // named after the service: the scaling function switches its actions off while a wake starts the tier
        toZeroAlarm = alarm("ToZeroAlarm", TierWake.toZeroAlarmName(service.getServiceName()), expression(ScalingLadder.IDLE_EXPRESSION, idleMetrics,
                        tier + " tasks wanted or jobs sent"),
                ComparisonOperator.LESS_THAN_OR_EQUAL_TO_THRESHOLD, ScalingLadder.TO_ZERO_THRESHOLD, idleMinutes,
                "gpupipe " + tier + ": nothing queued, in flight or sent for " + idleMinutes
                        + " minutes: scale to zero in one step", zero);

        warmWindow(spec.tier().wireName()).ifPresent(this::scheduleWarmWindow);
    }

    private StepScalingAction policy(String id, AdjustmentType type, Duration cooldown) {
        return StepScalingAction.Builder.create(this, id)
                .scalingTarget(target)
                .adjustmentType(type)
                .metricAggregationType(MetricAggregationType.MAXIMUM)
                .cooldown(software.amazon.awscdk.Duration.seconds(cooldown.toSeconds()))
                .build();
    }

    private Alarm alarm(String id, String name, MathExpression metric, ComparisonOperator operator, double threshold,
                        int minutes, String description, StepScalingAction action) {
        Alarm alarm = metric.createAlarm(this, id, CreateAlarmOptions.builder()
                .alarmName(name)
                .alarmDescription(description)
                .comparisonOperator(operator)
                .threshold(threshold)
                .evaluationPeriods(minutes)
                .datapointsToAlarm(minutes)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build());
        alarm.addAlarmAction(new ApplicationScalingAction(action));
        return alarm;
    }

    private static MathExpression expression(String expression, Map<String, IMetric> metrics, String label) {
        return MathExpression.Builder.create()
                .expression(expression)
                .usingMetrics(metrics)
                .label(label)
                .period(GpupipeMetrics.MINUTE)
                .build();
    }

    /** Min capacity up at the window's start, back to 0 at its end, in the window's time zone. */
    private void scheduleWarmWindow(WarmWindow window) {
        TimeZone zone = TimeZone.of(window.zone().getId());
        target.scaleOnSchedule("WarmWindowStart", ScalingSchedule.builder()
                .schedule(Schedule.expression(window.startSchedule()))
                .timeZone(zone)
                .minCapacity(window.minTasks())
                .build());
        target.scaleOnSchedule("WarmWindowEnd", ScalingSchedule.builder()
                .schedule(Schedule.expression(window.endSchedule()))
                .timeZone(zone)
                .minCapacity(0)
                .build());
    }

    private Optional<WarmWindow> warmWindow(String tier) {
        Object value = getNode().tryGetContext(tier + "WarmWindow");
        return value == null || value.toString().isBlank() ? Optional.empty()
                : Optional.of(WarmWindow.parse(value.toString()));
    }

    private Duration idleToZero() {
        Object value = getNode().tryGetContext("idleToZeroMinutes");
        return value == null ? ScalingLadder.DEFAULT_IDLE_TO_ZERO
                : Duration.ofMinutes(Long.parseLong(value.toString()));
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

    public Alarm getToZeroAlarm() {
        return toZeroAlarm;
    }

    public ScalingLadder getLadder() {
        return ladder;
    }
}
