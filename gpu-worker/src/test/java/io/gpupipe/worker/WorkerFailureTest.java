package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.RecordingJobEvents;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Failures, heartbeats, the adaptive window and drain, on the same app and resources as
 * {@link WorkerPipelineTest} (small queue: visibility 3 s, maxReceiveCount 3; stand-in: 8 sequences).
 */
@QuarkusTest
class WorkerFailureTest extends WorkerAppTest {
    static final Duration RESULT_TIMEOUT = Duration.ofSeconds(30);

    @Inject
    RecordingJobEvents events;

    @Test
    void serverErrors_shouldBeRetriedWithinTheJob_andYieldOneResult() {
        // given the model answers 500 twice, then recovers (3 calls allowed per delivery)
        String id = LocalPipeline.newRequestId();
        String prompt = "flaky twice " + id;
        standIn.failNext(2, prompt);
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, prompt));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(3);
        JobEvent event = await("event").atMost(RESULT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        assertThat(event.modelCalls()).isEqualTo(3);
    }

    @Test
    void serverErrors_shouldReturnTheMessageToTheQueue_whenTheyOutlastOneDelivery_thenOneResult() {
        // given 4 failures: the first delivery spends its 3 calls, the second succeeds on its 2nd call
        String id = LocalPipeline.newRequestId();
        String prompt = "flaky four times " + id;
        standIn.failNext(4, prompt);
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, prompt));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        await("two deliveries").atMost(RESULT_TIMEOUT).until(() -> events.of(id).size() == 2);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(5);
        assertThat(events.of(id)).extracting(JobEvent::outcome)
                .containsExactly(JobOutcome.REQUEUED, JobOutcome.SUCCEEDED);
        assertThat(events.of(id).get(0).errorCode()).isEqualTo(ErrorCodes.MODEL_ERROR);
    }

    @Test
    void modelDown_shouldWriteAFailedResultOnTheLastAttempt_thenSqsMovesTheMessageToTheDlq() {
        // given the model server is down for the job's whole life
        String id = LocalPipeline.newRequestId();
        standIn.down();
        try {
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "nobody home " + id));
            // when
            JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
            List<Message> deadLetters = pipeline.awaitDeadLetters(id, RESULT_TIMEOUT);
            // then
            assertThat(result.status()).isEqualTo(JobStatus.FAILED);
            assertThat(result.error().code()).isEqualTo(ErrorCodes.MODEL_UNAVAILABLE);
            assertThat(result.error().message()).contains("unreachable");
            assertThat(result.attempts()).isEqualTo(3);
            assertThat(deadLetters).hasSize(1);
            assertThat(events.of(id)).extracting(JobEvent::outcome)
                    .containsExactly(JobOutcome.REQUEUED, JobOutcome.REQUEUED, JobOutcome.FAILED);
        } finally {
            standIn.up();
        }
    }

    @Test
    void slowJob_longerThanTheVisibilityTimeout_shouldNotBeDeliveredTwice() {
        // given a generation of 8 s against a 3 s visibility timeout
        String id = LocalPipeline.newRequestId();
        String prompt = "a very long story " + id;
        standIn.slow(prompt, Duration.ofSeconds(8));
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, prompt));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then the heartbeat kept it invisible: one delivery, one call, one event
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.processingTimeMs()).isGreaterThanOrEqualTo(8000);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
        await("no second delivery of " + id).during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(events.of(id)).extracting(JobEvent::outcome)
                        .containsExactly(JobOutcome.SUCCEEDED));
    }

    @Test
    void adaptiveWindow_shouldShrinkWhileTheServerQueues_andGrowBackWhenItDrains() {
        // given 32 jobs of 2 s each for a server that batches 8, while the worker sized its window for the default
        // 16 slots (20 = 16 + the headroom of 4 it keeps waiting on purpose): 12 wait inside the server
        Worker worker = lifecycle.worker().orElseThrow();
        assertThat(worker.isAdaptive()).isTrue();
        int full = worker.settings().maxInFlight();
        assertThat(worker.windowLimit()).isEqualTo(full).isEqualTo(20);
        String tag = "adaptive " + LocalPipeline.newRequestId();
        standIn.slow(tag, Duration.ofSeconds(2));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            String id = LocalPipeline.newRequestId();
            ids.add(id);
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, tag + " " + i));
        }
        // when, then
        await("the window to shrink").atMost(Duration.ofSeconds(10)).until(() -> worker.windowLimit() < full);
        ids.forEach(id -> assertThat(pipeline.awaitResult(id, Duration.ofSeconds(60)).status())
                .isEqualTo(JobStatus.SUCCEEDED));
        await("the window to grow back").atMost(Duration.ofSeconds(15)).until(() -> worker.windowLimit() == full);
    }

    @Test
    void drain_shouldLetShortJobsFinish_andReleaseLongOnesAtOnce_withNoneLost() throws Exception {
        // given a second worker on the large queue with 2 quick and 4 long (20 s) jobs in flight
        CapturedEvents captured = new CapturedEvents();
        Worker worker = largeQueueWorker(captured);
        String tag = "drain long " + LocalPipeline.newRequestId();
        standIn.slow(tag, Duration.ofSeconds(20));
        List<String> quick = List.of(LocalPipeline.newRequestId(), LocalPipeline.newRequestId());
        List<String> slow = new ArrayList<>();
        quick.forEach(id -> pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, "drain quick " + id)));
        for (int i = 0; i < 4; i++) {
            String id = LocalPipeline.newRequestId();
            slow.add(id);
            pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, tag + " " + id));
        }
        worker.start();
        quick.forEach(id -> pipeline.awaitResult(id, RESULT_TIMEOUT));
        await("the long jobs in flight").atMost(RESULT_TIMEOUT).until(() -> worker.inFlight() == 4);
        // when SIGTERM's drain gives them 1 s
        long start = System.nanoTime();
        DrainReport report = worker.drain(Duration.ofSeconds(1));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        // then the long ones are back in the queue at once, unwritten
        assertThat(report.released()).isEqualTo(4);
        assertThat(tookMs).isLessThan(4000);
        Set<String> requeued = pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ZERO).stream()
                .map(m -> slow.stream().filter(m.body()::contains).findFirst().orElse("other"))
                .collect(Collectors.toSet());
        assertThat(requeued).containsExactlyInAnyOrderElementsOf(slow);
        slow.forEach(id -> assertThat(pipeline.result(id)).isEmpty());
        assertThat(captured.all()).extracting(JobEvent::outcome).filteredOn(o -> o == JobOutcome.RELEASED)
                .hasSize(4);
    }

    @Test
    void drain_shouldWaitForRunningJobs_whenTheyFinishWithinTheGrace() {
        // given two 1.5 s jobs in flight
        CapturedEvents captured = new CapturedEvents();
        Worker worker = largeQueueWorker(captured);
        String tag = "drain finish " + LocalPipeline.newRequestId();
        standIn.slow(tag, Duration.ofMillis(1500));
        List<String> ids = List.of(LocalPipeline.newRequestId(), LocalPipeline.newRequestId());
        ids.forEach(id -> pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, tag + " " + id)));
        worker.start();
        await("both jobs in flight").atMost(RESULT_TIMEOUT).until(() -> worker.inFlight() == 2);
        // when
        DrainReport report = worker.drain(Duration.ofSeconds(10));
        // then
        assertThat(report.released()).isZero();
        ids.forEach(id -> assertThat(pipeline.result(id)).map(JobResult::status).contains(JobStatus.SUCCEEDED));
        assertThat(pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ofSeconds(1))).isEmpty();
    }

    private Worker largeQueueWorker(CapturedEvents captured) {
        return queueWorker(appSettings(Tier.of("large")).withMaxInFlight(8).withoutAdaptiveWindow(), localStore(),
                captured);
    }
}
