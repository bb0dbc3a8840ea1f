package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Copies of one job on different tasks (a resubmission's copy, sent while another task runs the job): the model runs
 * once. Two workers of the test's own, each its own task, on the large queue, against the vLLM stand-in that counts
 * completions; shares the app and resources of {@link WorkerPipelineTest}.
 */
@QuarkusTest
class DuplicateCopiesTest extends WorkerAppTest {
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final Tier LARGE = Tier.of("large");

    private final List<Worker> workers = new ArrayList<>();

    @AfterEach
    void stopWorkers() {
        workers.forEach(worker -> worker.drain(Duration.ofSeconds(1)));
    }

    @Test
    void copyOnAnotherTask_shouldBeDeletedWithoutInference_whileTheFirstTaskRunsTheJob() {
        // given a queued job whose first message task A runs (3 s at the model); A's window of one holds no more
        String id = LocalPipeline.newRequestId();
        String prompt = "copies " + id;
        standIn.slow(prompt, Duration.ofSeconds(3));
        pipeline.putMarker(JobState.queued(job(id, prompt), LARGE, Instant.now()));
        CapturedEvents eventsOfA = new CapturedEvents();
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, prompt));
        start("arn:aws:ecs:us-east-1:000000000000:task/gpupipe/a", 1, eventsOfA);
        await("task A to mark " + id + " running").atMost(TIMEOUT).until(() -> pipeline.marker(id)
                .filter(m -> m.status() == JobStatus.RUNNING).isPresent());

        // when a copy arrives and task B receives it
        CapturedEvents eventsOfB = new CapturedEvents();
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, prompt));
        start("arn:aws:ecs:us-east-1:000000000000:task/gpupipe/b", 2, eventsOfB);
        JobResult result = pipeline.awaitResult(id, TIMEOUT);
        await("both copies settled").atMost(TIMEOUT)
                .until(() -> eventsOfA.of(id).size() + eventsOfB.of(id).size() == 2);

        // then
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
        assertThat(result.taskArn()).endsWith("/a");
        assertThat(eventsOfA.of(id)).extracting(JobEvent::outcome).containsExactly(JobOutcome.SUCCEEDED);
        assertThat(eventsOfB.of(id)).extracting(JobEvent::outcome).containsExactly(JobOutcome.DUPLICATE);
        assertThat(pipeline.drainQueue(LocalAws.ESCALATION_QUEUE, Duration.ZERO)).noneMatch(m -> m.body()
                .contains(id));
    }

    @Test
    void copy_shouldTakeTheJobOver_whenTheRunningMarkerIsStale() {
        // given a job a task marked running an hour ago and never finished: that task died
        String id = LocalPipeline.newRequestId();
        String prompt = "orphaned " + id;
        Instant anHourAgo = Instant.now().minus(Duration.ofHours(1));
        pipeline.putMarker(JobState.queued(job(id, prompt), LARGE, anHourAgo).running("arn:dead-task", anHourAgo));
        CapturedEvents events = new CapturedEvents();
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, prompt));

        // when
        start("arn:aws:ecs:us-east-1:000000000000:task/gpupipe/b", 2, events);
        JobResult result = pipeline.awaitResult(id, TIMEOUT);

        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.taskArn()).endsWith("/b");
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
    }

    private void start(String taskArn, int window, CapturedEvents events) {
        Worker worker = queueWorker(appSettings(LARGE).withTaskArn(taskArn).withMaxInFlight(window)
                .withoutAdaptiveWindow(), localStore(), events);
        workers.add(worker);
        worker.start();
    }

    private static InferenceJob job(String id, String prompt) {
        return new InferenceJob(id, Task.GENERATE, prompt, 16, 0.0, 1.0, null, null, null, null, null, Instant.now());
    }
}
