package io.gpupipe.model.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.routing.RoutingDecision.Reason;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every row of seed 001's routing table, at and around each threshold. */
class RoutingPolicyTest {
    private final AtomicInteger classifierCalls = new AtomicInteger();
    private final Classifier saysLarge = job -> {
        classifierCalls.incrementAndGet();
        return Optional.of(Tier.of("large"));
    };

    private static InferenceJob job(Task task, int promptChars, int maxTokens, Tier route) {
        return new InferenceJob("550e8400-e29b-41d4-a716-446655440000", task, "p".repeat(promptChars), maxTokens,
                0.7, 1.0, route, null, null, null, null, null);
    }

    @ParameterizedTest(name = "prompt {0} chars, maxTokens {1}, route {2} -> {3} by {4}")
    @CsvSource(nullValues = "-", value = {
        // explicit route wins over every other signal
        "10,   256,  large, large, EXPLICIT_ROUTE",
        "5000, 2048, small, small, EXPLICIT_ROUTE",
        // prompt > 2,000 characters -> large
        "2001, 256,  -,     large, PROMPT_LENGTH",
        // maxTokens > 1,024 -> large
        "10,   1025, -,     large, MAX_TOKENS",
        "1500, 2048, -,     large, MAX_TOKENS",
        // 500 < prompt <= 2,000 and maxTokens <= 1,024 -> classifier
        "501,  1024, -,     large, CLASSIFIER",
        "2000, 256,  -,     large, CLASSIFIER",
        // default (prompt <= 500) -> small
        "500,  1024, -,     small, DEFAULT",
        "1,    1,    -,     small, DEFAULT"})
    void route_shouldFollowSeedTable(int promptChars, int maxTokens, Tier route, Tier expected, Reason reason) {
        // given
        var policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, saysLarge);

        // when
        RoutingDecision decision = policy.route(job(Task.GENERATE, promptChars, maxTokens, route));

        // then
        assertThat(decision).isEqualTo(new RoutingDecision(expected, reason));
        assertThat(classifierCalls.get()).isEqualTo(reason == Reason.CLASSIFIER ? 1 : 0);
    }

    @Test
    void route_shouldSendAmbiguousJobsSmall_whenDefaultHeuristicClassifier() {
        assertThat(RoutingPolicy.defaults().route(job(Task.GENERATE, 1000, 256, null)))
                .isEqualTo(new RoutingDecision(Tier.of("small"), Reason.CLASSIFIER));
    }

    @Test
    void route_shouldFallBackToSmall_whenClassifierAnswersNull() {
        var policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, job -> null);

        assertThat(policy.route(job(Task.GENERATE, 1000, 256, null)).tier()).isEqualTo(Tier.of("small"));
    }

    @Test
    void route_shouldUseConfiguredThresholds() {
        var policy = new RoutingPolicy(new RoutingThresholds(100, 64, 50), saysLarge);

        assertThat(policy.route(job(Task.GENERATE, 101, 10, null)).reason()).isEqualTo(Reason.PROMPT_LENGTH);
        assertThat(policy.route(job(Task.GENERATE, 10, 65, null)).reason()).isEqualTo(Reason.MAX_TOKENS);
        assertThat(policy.route(job(Task.GENERATE, 51, 10, null)).reason()).isEqualTo(Reason.CLASSIFIER);
        assertThat(policy.route(job(Task.GENERATE, 50, 10, null)).reason()).isEqualTo(Reason.DEFAULT);
    }

    @Test
    void route_shouldSendSpeechToTheSpeechTier_whateverItsLength() {
        var policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, saysLarge);

        assertThat(policy.route(job(Task.SPEECH, 5000, 2048, null)))
                .isEqualTo(new RoutingDecision(Tier.of("speech"), Reason.TASK_DEFAULT));
        assertThat(classifierCalls.get()).isZero();
    }

    @Test
    void route_shouldIgnoreAClassifierAnswer_whenThatTierCannotServeText() {
        var policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, job -> Optional.of(Tier.of("speech")));

        assertThat(policy.route(job(Task.GENERATE, 1000, 256, null)).tier()).isEqualTo(Tier.of("small"));
    }

    @Test
    void route_shouldFollowTheCatalogue_whenItConfiguresOtherTiers() {
        // given: a catalogue whose default text tier is "medium" and whose escalation tier is "huge"
        TierCatalogue bundled = TierCatalogue.bundled();
        TierCatalogue catalogue = bundled.withTier(bundled.get(Tier.of("small")).renamed("medium"))
                .withTier(bundled.get(Tier.of("large")).renamed("huge"))
                .withTier(bundled.get(Tier.of("speech")).renamed("voice"))
                .withRouting(Task.GENERATE, Tier.of("medium"), Tier.of("huge"))
                .withRouting(Task.SPEECH, Tier.of("voice"), Tier.of("huge"));
        var policy = new RoutingPolicy(RoutingThresholds.DEFAULTS, Classifier.heuristic(), catalogue);

        // then
        assertThat(policy.route(job(Task.GENERATE, 10, 256, null)).tier()).isEqualTo(Tier.of("medium"));
        assertThat(policy.route(job(Task.GENERATE, 2001, 256, null)).tier()).isEqualTo(Tier.of("huge"));
        assertThat(policy.route(job(Task.SPEECH, 10, 256, null)).tier()).isEqualTo(Tier.of("voice"));
    }
}
