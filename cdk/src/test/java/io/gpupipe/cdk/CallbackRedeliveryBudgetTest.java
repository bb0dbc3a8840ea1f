package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.list;
import static io.gpupipe.cdk.TemplateJson.map;
import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * Callbacks are delivered apart from result events: the notifier hands every job's callback, its first delivery
 * included, to the callback queue it is configured with, and the queue's event source mapping on the notifier has its
 * own concurrency, below the function's reserved concurrency, and a batch whose attempts, each cut at the attempt
 * timeout, fit the function's timeout with room for the records' S3 and SQS calls. Every figure is read from
 * sam-template.yaml.
 */
class CallbackRedeliveryBudgetTest {
    /**
     * Kept free of HTTP attempts in a redelivery invocation: per record, reading the result and the delivery ledger,
     * writing the ledger or queueing the next redelivery, each a few hundred milliseconds in a region.
     */
    private static final Duration STORE_CALLS = Duration.ofSeconds(15);
    private static Template sam;

    @BeforeAll
    static void load() {
        sam = SamTemplateTest.include();
    }

    @Test
    void redeliveryBatch_shouldFitTheFunctionTimeout_whenEveryAttemptRunsToItsTimeout() {
        // given
        Map<String, Object> function = notifier();
        Duration timeout = Duration.ofSeconds(((Number) function.get("Timeout")).longValue());
        Map<String, Object> env = map(map(function.get("Environment")).get("Variables"));
        assertThat(env).as("the notifier's redelivery attempt timeout")
                .containsKey("GPUPIPE_NOTIFIER_CALLBACK_REDELIVERY_ATTEMPT_TIMEOUT");
        Duration attempt = duration(String.valueOf(env.get("GPUPIPE_NOTIFIER_CALLBACK_REDELIVERY_ATTEMPT_TIMEOUT")));
        int batchSize = ((Number) redeliveries().get("BatchSize")).intValue();

        // when: a delivery makes one attempt (the queue's growing delay is its back-off); the notifier tries a batch's
        // records at once, and the bound holds even were they tried one after another
        Duration worstBatch = attempt.multipliedBy(batchSize);

        // then
        assertThat(batchSize).isPositive();
        assertThat(worstBatch.plus(STORE_CALLS)).as("%d x %s + %s within %s", batchSize, attempt, STORE_CALLS,
                timeout).isLessThanOrEqualTo(timeout);
    }

    @Test
    void firstDeliveries_shouldGoThroughTheBudgetedQueue_whenTheNotifierIsConfiguredWithIt() {
        // given
        Map<String, Object> env = map(map(notifier().get("Environment")).get("Variables"));

        // when: the queue the notifier hands callbacks to, and the queue its budgeted mapping consumes
        Object handedTo = env.get("GPUPIPE_NOTIFIER_CALLBACK_RETRY_QUEUE_URL");
        Object consumed = redeliveries().get("EventSourceArn");

        // then: one queue, so no callback attempt runs within a result's own invocation, where it would hold a slot
        // that publishes other callers' result events
        assertThat(handedTo).as("the notifier's callback queue").isEqualTo(Map.of("Ref", "CallbackRetryQueue"));
        assertThat(consumed).isEqualTo(Map.of("Fn::GetAtt", "CallbackRetryQueue.Arn"));
    }

    @Test
    void redeliveries_shouldHaveTheirOwnConcurrency_leavingFirstDeliveriesMostOfTheFunctionsSlots() {
        // given
        Object reserved = notifier().get("ReservedConcurrentExecutions");
        // !If [UseReservedConcurrency, N, !Ref AWS::NoValue]
        int slots = ((Number) list(map(reserved).get("Fn::If")).get(1)).intValue();
        assertThat(redeliveries()).as("the redelivery mapping's own concurrency").containsKey("ScalingConfig");
        Map<String, Object> scaling = map(redeliveries().get("ScalingConfig"));

        // when
        int redeliverySlots = ((Number) scaling.get("MaximumConcurrency")).intValue();

        // then: SQS's minimum of 2, and at most a fifth of the slots, so first deliveries keep the rest
        assertThat(redeliverySlots).isGreaterThanOrEqualTo(2).isLessThanOrEqualTo(slots / 5);
    }

    private static Map<String, Object> notifier() {
        return properties(resource("AWS::Serverless::Function", "ResultNotifierFunction"));
    }

    /** The callback-retry queue's event source mapping on the notifier. */
    private static Map<String, Object> redeliveries() {
        return properties(resource("AWS::Lambda::EventSourceMapping", "ResultNotifierFunctionCallbackRedelivery"));
    }

    /** A resource kept as written (CfnInclude names it {@code Template<logicalId><8 hex digits>}). */
    private static Map<String, Object> resource(String type, String logicalId) {
        return sam.findResources(type).entrySet().stream()
                .filter(e -> e.getKey().matches("Template" + logicalId + "[0-9A-F]{8}")).map(Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new AssertionError("no " + type + " " + logicalId
                        + " in sam-template.yaml"));
    }

    /** A Quarkus duration as the template writes it: {@code 8s}, {@code 1m}. */
    private static Duration duration(String value) {
        return Duration.parse("PT" + value.toUpperCase(Locale.ROOT));
    }
}
