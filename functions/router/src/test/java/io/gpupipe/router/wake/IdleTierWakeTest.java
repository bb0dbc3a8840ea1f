package io.gpupipe.router.wake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.LambdaStandIn;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.router.aws.LambdaTierWaker;
import io.gpupipe.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;

/** The router's wake: only the first send to a tier after an idle gap wakes it, and never costs a job. */
class IdleTierWakeTest {
    private static final Tier SMALL = Tier.of("small");
    private static final Tier LARGE = Tier.of("large");
    private static final Instant T0 = Instant.parse("2026-12-03T10:00:17Z");

    private final List<TierWake> woken = new ArrayList<>();
    private final MutableClock clock = new MutableClock(T0);
    private final IdleTierWake wake = new IdleTierWake(woken::add, Duration.ofMinutes(5), clock);

    @Test
    void sent_shouldWakeOnTheFirstSend_andNotAgainWhileTheTierCannotBeAtZero() {
        // when: a burst, then a send after the idle window, per tier
        boolean first = wake.sent(SMALL);
        clock.advance(Duration.ofSeconds(10));
        boolean second = wake.sent(SMALL);
        boolean otherTier = wake.sent(LARGE);
        clock.advance(Duration.ofMinutes(4).plusSeconds(49));
        boolean stillAwake = wake.sent(SMALL);
        clock.advance(Duration.ofMinutes(5));
        boolean afterIdle = wake.sent(SMALL);

        // then
        assertThat(List.of(first, second, otherTier, stillAwake, afterIdle))
                .containsExactly(true, false, true, false, true);
        assertThat(woken).extracting(TierWake::tier).containsExactly(SMALL, LARGE, SMALL);
        assertThat(woken.get(0).at()).isEqualTo(T0);
    }

    @Test
    void sent_shouldNotFail_whenTheWakeCannotBeSent() {
        // given
        IdleTierWake failing = new IdleTierWake(w -> {
            throw new IllegalStateException("throttled");
        }, Duration.ofMinutes(5), clock);

        // when, then: the job is queued already; the tier wakes at the next scheduled run
        assertThat(failing.sent(SMALL)).isFalse();
    }

    @Test
    void wakingQueue_shouldWakeOnlyAfterASendThatWentThrough() {
        // given: a queue that is down, then up
        List<Tier> sent = new ArrayList<>();
        boolean[] down = {true};
        JobQueue queues = new JobQueue() {
            @Override
            public String send(InferenceJob job, Tier tier) {
                if (down[0]) {
                    throw new QueueUnavailableException("SQS unreachable", null);
                }
                sent.add(tier);
                return "m-" + sent.size();
            }
        };
        WakingJobQueue waking = new WakingJobQueue(queues, wake);

        // when
        assertThatThrownBy(() -> waking.send(job(), SMALL)).isInstanceOf(QueueUnavailableException.class);
        Map<String, JobQueue.SendFailure> failed = waking.sendAll(SMALL, List.of(job()));
        down[0] = false;
        waking.send(job(), SMALL);

        // then
        assertThat(failed).hasSize(1);
        assertThat(woken).extracting(TierWake::tier).containsExactly(SMALL);
    }

    @Test
    void lambdaWaker_shouldInvokeTheScalingFunctionAsynchronously_withTheWakeEvent() throws Exception {
        // given: the Lambda stand-in with the scaling function registered
        try (LambdaStandIn standIn = new LambdaStandIn();
             LambdaClient lambda = LambdaClient.builder().endpointOverride(standIn.endpoint())
                     .region(Region.of(LocalAws.REGION)).credentialsProvider(LocalAws.credentials())
                     .httpClient(UrlConnectionHttpClient.create()).build()) {
            List<String> received = new ArrayList<>();
            standIn.register("gpupipe-scaling-metric", payload -> received.add(new String(payload)));
            LambdaTierWaker waker = new LambdaTierWaker(lambda, "arn:aws:lambda:us-east-1:123456789012:function:"
                    + "gpupipe-scaling-metric");

            // when
            waker.wake(new TierWake(LARGE, T0));

            // then: the event the scaling function reads back as a wake of the large tier
            assertThat(standIn.invocations()).singleElement()
                    .satisfies(i -> assertThat(i.function()).isEqualTo("gpupipe-scaling-metric"));
            JsonNode event = JobJson.read(standIn.invocations().get(0).payload(), JsonNode.class);
            assertThat(TierWake.from(event.path("source").asText(), event.path("detail-type").asText(),
                    event.path("detail"), Instant.parse(event.path("time").asText())))
                    .contains(new TierWake(LARGE, T0));
            assertThatThrownBy(() -> new LambdaTierWaker(lambda, "no-such-function").wake(new TierWake(LARGE, T0)))
                    .hasMessageContaining("Function not found");
        }
    }

    private static InferenceJob job() {
        return new InferenceJob(UUID.randomUUID().toString(), Task.GENERATE, "Hello", 8, 0.0, 1.0, null, null, null,
                null, null, null);
    }
}
