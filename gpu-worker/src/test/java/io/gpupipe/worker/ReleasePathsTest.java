package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.FaultyJobStore;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Every way a delivery can end without a result, on the last receive before the redrive policy moves the message to
 * the DLQ, and duplicate deliveries. A worker of its own on the large queue (visibility
 * 3 s, maxReceiveCount 3) over the real S3 store with faults injected at the port; the test's own consumer receives
 * and releases a message twice first, so the worker gets it as the third and last receive.
 */
@QuarkusTest
class ReleasePathsTest extends WorkerAppTest {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    FaultyJobStore store;
    CapturedEvents events;
    Worker worker;

    @BeforeEach
    void largeQueueWorker() {
        // start on an empty queue: another class's worker on it (CancelRaceTest) may have released a message at its
        // drain, and this test's own receives must get this test's message
        pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ZERO);
        WorkerSettings settings = appSettings(Tier.of("large")).withMaxInFlight(4).withoutAdaptiveWindow();
        assertThat(settings.attempts().maxReceiveCount()).isEqualTo(aws.maxReceiveCount()).isEqualTo(3);
        store = new FaultyJobStore(localStore());
        events = new CapturedEvents();
        worker = queueWorker(settings, store, events);
    }

    @AfterEach
    void stopWorker() {
        worker.drain(Duration.ofSeconds(1));
        pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ZERO);
    }

    @Test
    void unexpectedError_onTheLastReceive_shouldWriteAFailedResult_beforeTheMessageIsDeadLettered() {
        // given a job whose marker cannot be read (an error the worker does not expect), on its last receive
        String id = LocalPipeline.newRequestId();
        store.breakMarkerReads(id);
        // when, then
        JobResult result = failedOnTheLastReceive(id, "broken marker " + id);
        assertThat(result.error().message()).contains("injected: marker read");
    }

    @Test
    void contendedClaim_onTheLastReceive_shouldWriteAFailedResult_beforeTheMessageIsDeadLettered() {
        // given a job whose running marker always loses to another writer, on its last receive
        String id = LocalPipeline.newRequestId();
        store.contendMarker(id);
        // when, then
        JobResult result = failedOnTheLastReceive(id, "contended " + id);
        assertThat(result.error().message()).contains("marker kept changing");
    }

    /** Runs the job on its last receive and checks it ends failed/worker_error, unrun, with its message dead-lettered. */
    private JobResult failedOnTheLastReceive(String id, String prompt) {
        sendOnItsLastReceive(id, prompt);
        worker.start();
        JobResult result = pipeline.awaitResult(id, TIMEOUT);
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.WORKER_ERROR);
        assertThat(result.attempts()).isEqualTo(3);
        assertThat(standIn.completionsWith(id)).isZero();
        assertThat(deadLettered(id)).hasSize(1);
        return result;
    }

    @Test
    void drain_onTheLastReceive_shouldWriteAFailedResult_beforeReleasingTheMessage() {
        // given a long job on its last receive
        String id = LocalPipeline.newRequestId();
        String prompt = "drained on the last receive " + id;
        standIn.slow(prompt, Duration.ofSeconds(20));
        sendOnItsLastReceive(id, prompt);
        worker.start();
        await("the model call").atMost(TIMEOUT).until(() -> standIn.completionsWith(id) == 1);
        // when SIGTERM's drain gives it 1 s
        DrainReport report = worker.drain(Duration.ofSeconds(1));
        // then
        assertThat(report.released()).isEqualTo(1);
        JobResult result = pipeline.result(id).orElseThrow();
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.WORKER_STOPPED);
        assertThat(deadLettered(id)).hasSize(1);
    }

    @Test
    void resultWriteFailingAfterInference_shouldBeRetried_notTheInference() {
        // given S3 refuses the first two writes of the result
        String id = LocalPipeline.newRequestId();
        String prompt = "result write fails twice " + id;
        store.failResultWrites(id, 2);
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, prompt));
        // when
        worker.start();
        JobResult result = pipeline.awaitResult(id, TIMEOUT);
        // then one delivery, one model call, one result
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
        await("the event").atMost(TIMEOUT).until(() -> !events.of(id).isEmpty());
        assertThat(events.of(id)).extracting(JobEvent::outcome).containsExactly(JobOutcome.SUCCEEDED);
    }

    @Test
    void duplicateDelivery_shouldBeReleasedWithADelay_insteadOfHoldingASlotWhileTheOriginalRuns() {
        // given the same job twice; the original generation takes 6 s
        String id = LocalPipeline.newRequestId();
        String prompt = "duplicate released " + id;
        standIn.slow(prompt, Duration.ofSeconds(6));
        String body = LocalPipeline.job(id, prompt);
        pipeline.send(LocalAws.ESCALATION_QUEUE, body);
        pipeline.send(LocalAws.ESCALATION_QUEUE, body);
        // when
        worker.start();
        await("the original's model call").atMost(TIMEOUT).until(() -> standIn.completionsWith(prompt) == 1);
        // then the duplicate gives its slot back long before the original ends
        await("the duplicate to be released").atMost(Duration.ofSeconds(3)).until(() -> worker.inFlight() == 1);
        assertThat(pipeline.result(id)).isEmpty();
        JobResult result = pipeline.awaitResult(id, TIMEOUT);
        await("the duplicate's return (after the model timeout, 20 s here)").atMost(Duration.ofSeconds(40))
                .until(() -> events.of(id).size() == 2);
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
        assertThat(events.of(id)).extracting(JobEvent::outcome)
                .containsExactly(JobOutcome.SUCCEEDED, JobOutcome.DUPLICATE);
    }

    /** Sends the job, then receives and releases it twice, so that the worker's receive is the last one. */
    private void sendOnItsLastReceive(String id, String prompt) {
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, prompt));
        String url = aws.queueUrl(LocalAws.ESCALATION_QUEUE);
        for (int receive = 1; receive < aws.maxReceiveCount(); receive++) {
            Message message = await("the job message").atMost(TIMEOUT)
                    .until(() -> pipeline.sqs().receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(1)
                            .maxNumberOfMessages(1)).messages().stream().findFirst(), Optional::isPresent)
                    .orElseThrow();
            assertThat(message.body()).contains(id);
            pipeline.sqs().changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(message.receiptHandle())
                    .visibilityTimeout(0));
        }
    }

    /** Receives from the tier queue (so SQS applies the redrive policy), then reads the DLQ. */
    private List<Message> deadLettered(String id) {
        pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ZERO);
        return pipeline.awaitDeadLetters(id, Duration.ofSeconds(10));
    }
}
