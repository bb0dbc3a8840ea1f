package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.model.Tier;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.ExitingJobQueue;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Drain during a long poll: SIGTERM arrives while the poller waits in a real 20 s long poll against ElasticMQ. The process
 * exits as soon as the drain returns, so the drain must not return while a receive is outstanding: a message the
 * server hands to that receive (one sent after the exit, say) would otherwise stay invisible for the queue's whole visibility timeout (300 s here).
 */
@QuarkusTest
class DrainLongPollTest extends WorkerAppTest {
    static final Duration LONG_POLL = Duration.ofSeconds(20);

    @Test
    void drain_shouldLeaveNoMessageInvisible_whenOneArrivesDuringTheLongPoll() throws Exception {
        // given an idle worker in a 20 s long poll on a queue with a 300 s visibility timeout
        String url = pipeline.sqs().createQueue(b -> b.queueName("drain-" + LocalPipeline.newRequestId())
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "300"))).queueUrl();
        ExitingJobQueue queue = new ExitingJobQueue(new SqsTierQueue(pipeline.sqs(), url, Optional.empty()));
        WorkerSettings settings = appSettings(Tier.of("large")).withMaxInFlight(4).withoutAdaptiveWindow()
                .withVisibilityTimeout(Duration.ofSeconds(300)).withWaitTime(LONG_POLL);
        Worker worker = new Worker(settings, queue, localStore(), backend, new CapturedEvents(), Clock.systemUTC());
        worker.start();
        Thread.sleep(1000);
        // when SIGTERM drains it, the process exits when the drain returns, and then a job arrives
        long start = System.nanoTime();
        worker.drain(Duration.ofSeconds(1));
        long drainMs = (System.nanoTime() - start) / 1_000_000;
        queue.exit();
        pipeline.sqs().sendMessage(b -> b.queueUrl(url).messageBody("arrives after the exit"));
        // then the message is visible to the next worker at once
        List<Message> next = pipeline.sqs().receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(5))
                .messages();
        assertThat(queue.lostToExit()).isZero();
        assertThat(next).extracting(Message::body).containsExactly("arrives after the exit");
        assertThat(drainMs).isLessThan(LONG_POLL.toMillis() + 3000);
    }
}
