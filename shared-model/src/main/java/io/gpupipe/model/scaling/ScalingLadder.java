package io.gpupipe.model.scaling;

import io.gpupipe.model.TierDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The Application Auto Scaling rules that turn the published DesiredTasks into the service's desired count: the one
 * definition the CDK app synthesizes and the simulator replays. Three alarms, each on one-minute datapoints:
 * <ul>
 *   <li>scale out: gap = DesiredTasks − ServiceDesiredTasks ≥ 1 for one minute adds the whole gap at once (steps
 *       +1 … +{@code maxScaleOutStep}, Application Auto Scaling caps the result at the target's MaxCapacity);</li>
 *   <li>scale in: {@link #scaleInGap} ≤ −1 for {@code scaleInAfter} minutes in a row removes one task (tasks
 *       drain: SIGTERM, the worker stops polling and finishes what it holds). The scale-in gap counts a wanted 0
 *       as 1, so gradual scale-in never removes the last task: only the to-zero alarm does, after real idleness
 *       (without this, five ticks that happened to sample an empty queue stopped the only task mid-traffic);</li>
 *   <li>to zero: {@code idleToZero} idle minutes in a row set the count to exactly 0 in one step (the target's
 *       MinCapacity, raised by a warm window, still wins). A minute is idle when DesiredTasks ≤ 0 (nothing
 *       visible, delayed or in flight at the tick) <em>and</em> the queue's NumberOfMessagesSent in that minute is
 *       0: the function samples the queue once a minute, and at steady traffic of short jobs the queue is often
 *       empty at the sampling instant while jobs keep flowing (the simulator showed the service dropping to 0 in
 *       the middle of a business day without the second condition).</li>
 * </ul>
 */
public record ScalingLadder(int maxScaleOutStep, Duration scaleOutCooldown, Duration scaleInAfter,
                            Duration idleToZero) {
    /** A step scaling policy holds at most 20 step adjustments (Application Auto Scaling API reference). */
    public static final int MAX_STEPS = 20;
    /** The scale-out alarm's threshold on the gap. */
    public static final double SCALE_OUT_THRESHOLD = 1;
    /** The scale-in alarm's threshold on the gap. */
    public static final double SCALE_IN_THRESHOLD = -1;
    /** The to-zero alarm's threshold on MAX(DesiredTasks, NumberOfMessagesSent). */
    public static final double TO_ZERO_THRESHOLD = 0;
    /** Both seeds reach zero after 5 idle minutes; so do we by default. */
    public static final Duration DEFAULT_IDLE_TO_ZERO = Duration.ofMinutes(5);
    private static final Duration SCALE_OUT_COOLDOWN = Duration.ofSeconds(60);

    /** One step adjustment: bounds relative to the alarm threshold (upper absent = unbounded). */
    public record Step(double lowerBound, OptionalDouble upperBound, int adjustment) {
        public Step {
            Objects.requireNonNull(upperBound, "upperBound");
        }
    }

    public ScalingLadder {
        Objects.requireNonNull(scaleOutCooldown, "scaleOutCooldown");
        Objects.requireNonNull(scaleInAfter, "scaleInAfter");
        Objects.requireNonNull(idleToZero, "idleToZero");
        if (maxScaleOutStep < 1 || maxScaleOutStep > MAX_STEPS) {
            throw new IllegalArgumentException("maxScaleOutStep must be 1-" + MAX_STEPS + ", got " + maxScaleOutStep);
        }
        if (scaleInAfter.toMinutes() < 1 || idleToZero.toMinutes() < 1) {
            throw new IllegalArgumentException("scaleInAfter and idleToZero must be >= 1 minute, got "
                    + scaleInAfter + " and " + idleToZero);
        }
    }

    /** The ladder of a tier as gpupipe deploys it: its catalogue step and scale-in delay. */
    public static ScalingLadder defaults(TierDefinition tier) {
        return of(tier.maxScaleOutStep(), tier.scaleInAfter(), DEFAULT_IDLE_TO_ZERO);
    }

    /** A ladder with the standard 60 s scale-out cooldown. */
    public static ScalingLadder of(int maxScaleOutStep, Duration scaleInAfter, Duration idleToZero) {
        return new ScalingLadder(maxScaleOutStep, SCALE_OUT_COOLDOWN, scaleInAfter, idleToZero);
    }

    /** The same ladder with another idle period before going to zero. */
    public ScalingLadder withIdleToZero(Duration idle) {
        return new ScalingLadder(maxScaleOutStep, scaleOutCooldown, scaleInAfter, idle);
    }

    /** CloudWatch metric math of the scale-in gap ({@code wanted}: DesiredTasks, {@code current}: service's). */
    public static final String SCALE_IN_GAP_EXPRESSION = "IF(wanted < 1, 1, wanted) - current";
    /** Metric math of the to-zero alarm ({@code sent}: NumberOfMessagesSent; an inactive queue reports none: 0). */
    public static final String IDLE_EXPRESSION = "IF(wanted > FILL(sent, 0), wanted, FILL(sent, 0))";

    /** The gap the scale-in alarm sees: {@link #SCALE_IN_GAP_EXPRESSION}. */
    public static double scaleInGap(double wanted, double current) {
        return Math.max(wanted, 1) - current;
    }

    /** True when a minute counts towards going to zero: nothing wanted at the tick and nothing sent during it. */
    public static boolean isIdleMinute(double desiredTasks, double messagesSent) {
        return Math.max(desiredTasks, messagesSent) <= TO_ZERO_THRESHOLD;
    }

    /** Scale-out steps: a gap in [1, 2) adds 1, [2, 3) adds 2, …, ≥ maxScaleOutStep adds maxScaleOutStep. */
    public List<Step> scaleOutSteps() {
        List<Step> steps = new ArrayList<>();
        for (int add = 1; add < maxScaleOutStep; add++) {
            steps.add(new Step(add - 1, OptionalDouble.of(add), add));
        }
        steps.add(new Step(maxScaleOutStep - 1, OptionalDouble.empty(), maxScaleOutStep));
        return steps;
    }

    /** The adjustment the scale-out policy makes for {@code gap} (0 below the threshold). */
    public int scaleOutAdjustment(double gap) {
        double relative = gap - SCALE_OUT_THRESHOLD;
        if (relative < 0) {
            return 0;
        }
        for (Step step : scaleOutSteps()) {
            boolean belowUpper = step.upperBound().isEmpty() || relative < step.upperBound().getAsDouble();
            if (relative >= step.lowerBound() && belowUpper) {
                return step.adjustment();
            }
        }
        throw new IllegalStateException("no step for gap " + gap);
    }

    /** Scale-in removes one task per alarm. */
    public int scaleInAdjustment() {
        return -1;
    }

    /** Consecutive one-minute datapoints the scale-in alarm needs (also its cooldown in minutes). */
    public int scaleInMinutes() {
        return (int) scaleInAfter.toMinutes();
    }

    /** Consecutive one-minute datapoints of DesiredTasks ≤ 0 before the to-zero alarm fires. */
    public int idleMinutes() {
        return (int) idleToZero.toMinutes();
    }
}
