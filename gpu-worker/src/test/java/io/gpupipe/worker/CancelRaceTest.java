package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.RacingJobStore;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The API's cancel landing between the worker's marker read and its running write (made deterministic by a hook at
 * the store port, over the real S3 wire protocol): the cancel must win and the model must never be called. Shares
 * the app and resources of {@link WorkerPipelineTest}; runs its own worker on the large queue.
 */
@QuarkusTest
class CancelRaceTest extends WorkerAppTest {
    static final Duration EVENT_TIMEOUT = Duration.ofSeconds(20);

    RacingJobStore store;
    CapturedEvents events;
    Worker worker;

    @BeforeEach
    void largeQueueWorker() {
        store = new RacingJobStore(localStore());
        events = new CapturedEvents();
        worker = queueWorker(appSettings(Tier.of("large")).withMaxInFlight(2).withoutAdaptiveWindow(), store, events);
    }

    @AfterEach
    void stopWorker() {
        worker.drain(Duration.ofSeconds(1));
    }

    @Test
    void cancelAfterTheWorkersMarkerRead_shouldWin_andTheModelShouldNeverBeCalled() {
        // given a queued job whose marker the API cancels (If-Match, as JobService.cancel does) right after the
        // worker has read it as queued
        String id = LocalPipeline.newRequestId();
        JobState queued = JobState.queued(job(id), Tier.of("large"), Instant.now());
        pipeline.putMarker(queued);
        AtomicBoolean cancelWon = new AtomicBoolean();
        store.afterFirstMarkerRead(id, s3 -> {
            MarkerSnapshot current = s3.markerSnapshot(id);
            cancelWon.set(s3.replaceMarker(current.state().orElseThrow().cancelled(Instant.now()), current));
        });
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, "race me " + id));
        // when
        worker.start();
        JobEvent event = await("event of " + id).atMost(EVENT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        // then
        assertThat(cancelWon).isTrue();
        assertThatTheCancelWon(id, event);
    }

    @Test
    void markerCreatedCancelledAfterTheWorkerFoundNone_shouldWin_andTheModelShouldNeverBeCalled() {
        // given a job sent straight to the queue (no marker), and a cancelled marker created after the worker's read
        String id = LocalPipeline.newRequestId();
        AtomicBoolean created = new AtomicBoolean();
        store.afterFirstMarkerRead(id, s3 -> created.set(s3.replaceMarker(
                JobState.queued(job(id), Tier.of("large"), Instant.now()).cancelled(Instant.now()), MarkerSnapshot.ABSENT)));
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, "race me " + id));
        // when
        worker.start();
        JobEvent event = await("event of " + id).atMost(EVENT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        // then
        assertThat(created).isTrue();
        assertThatTheCancelWon(id, event);
    }

    @Test
    void queuedMarkerRewrittenAfterTheRead_shouldStillRun_overTheNewVersion() {
        // given a marker that changes (but stays queued) between the worker's read and its write
        String id = LocalPipeline.newRequestId();
        JobState queued = JobState.queued(job(id), Tier.of("large"), Instant.now());
        pipeline.putMarker(queued);
        store.afterFirstMarkerRead(id, s3 -> pipeline.putMarker(
                JobState.queued(job(id), Tier.of("large"), queued.updatedAt().plusMillis(1))));
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, "race me " + id));
        // when
        worker.start();
        JobEvent event = await("event of " + id).atMost(EVENT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        // then
        assertThat(event.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
        assertThat(standIn.completionsWith(id)).isEqualTo(1);
        assertThat(pipeline.result(id)).map(JobResult::status).contains(JobStatus.SUCCEEDED);
        assertThat(pipeline.marker(id)).map(JobState::status).contains(JobStatus.RUNNING);
    }

    private void assertThatTheCancelWon(String id, JobEvent event) {
        assertThat(event.outcome()).isEqualTo(JobOutcome.CANCELLED);
        assertThat(standIn.completionsWith(id)).isZero();
        assertThat(pipeline.result(id)).isEmpty();
        assertThat(pipeline.marker(id)).map(JobState::status).contains(JobStatus.CANCELLED);
        await("no second event of " + id).during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(events.of(id)).hasSize(1));
        assertThat(pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ZERO)).noneMatch(m -> m.body().contains(id));
    }

    private static InferenceJob job(String id) {
        return new InferenceJob(id, Task.GENERATE, "race me " + id, 16, 0.0, 1.0, null, null, null, null, null,
                Instant.now());
    }
}
