package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The worker's role of {@link S3JobStore}: the conditional marker rewrite and the create-only writes against S3Proxy
 * (which enforces If-None-Match: *), through the SDK as the app uses it.
 */
class S3JobStoreWorkerTest {
    private static LocalAws aws;
    private static S3Client s3;
    private static S3JobStore store;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        store = new S3JobStore(s3, null, aws.bucket());
    }

    @AfterAll
    static void stop() {
        s3.close();
        aws.close();
    }

    @Test
    void putResultIfAbsent_shouldRefuseToOverwrite_whenAnotherDeliveryWroteFirst() {
        // given
        String id = UUID.randomUUID().toString();
        JobResult first = result(id, "first");
        JobResult second = result(id, "second");
        // when
        boolean firstWon = store.putResultIfAbsent(first);
        boolean secondWon = store.putResultIfAbsent(second);
        // then
        assertThat(firstWon).isTrue();
        assertThat(secondWon).isFalse();
        assertThat(store.resultExists(id)).isTrue();
    }

    @Test
    void putResultIfAbsent_shouldCountAsWon_whenTheStoredObjectIsExactlyOurs() {
        // given a PUT that S3 stored although the client saw it fail, then retried
        JobResult result = result(UUID.randomUUID().toString(), "same");
        store.putResultIfAbsent(result);
        // when
        boolean retried = store.putResultIfAbsent(result);
        // then
        assertThat(retried).isTrue();
    }

    @Test
    void putResultIfAbsent_shouldWinExactlyOnce_perJob_underConcurrentWriters() throws Exception {
        // given 16 writers: 100 jobs, each written by 4 different deliveries at once
        ExecutorService pool = Executors.newFixedThreadPool(16);
        AtomicInteger wins = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String id = UUID.randomUUID().toString();
            for (int delivery = 0; delivery < 4; delivery++) {
                JobResult result = result(id, "delivery " + delivery);
                futures.add(pool.submit(() -> {
                    if (store.putResultIfAbsent(result)) {
                        wins.incrementAndGet();
                    }
                }));
            }
        }
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
        // then
        assertThat(wins).hasValue(100);
    }

    @Test
    void replaceMarker_shouldRefuse_whenTheMarkerChangedSinceItWasRead() {
        // given a worker's read of a queued marker, then the API's cancel over that same version
        String id = UUID.randomUUID().toString();
        JobState queued = JobState.queued(job(id), Tier.of("small"), Instant.now());
        assertThat(store.replaceMarker(queued, MarkerSnapshot.ABSENT)).isTrue();
        MarkerSnapshot workerRead = store.markerSnapshot(id);
        MarkerSnapshot apiRead = store.markerSnapshot(id);
        boolean cancelled = store.replaceMarker(queued.cancelled(Instant.now()), apiRead);
        // when the worker writes running over what it read
        boolean running = store.replaceMarker(queued.running("task", Instant.now()), workerRead);
        // then
        assertThat(workerRead.eTag()).isPresent();
        assertThat(cancelled).isTrue();
        assertThat(running).isFalse();
        assertThat(store.markerSnapshot(id).state()).map(JobState::status).contains(JobStatus.CANCELLED);
    }

    @Test
    void replaceMarker_shouldBeCreateOnly_whenNoMarkerWasRead() {
        // given
        String id = UUID.randomUUID().toString();
        JobState queued = JobState.queued(job(id), Tier.of("small"), Instant.now());
        // when
        boolean first = store.replaceMarker(queued.cancelled(Instant.now()), MarkerSnapshot.ABSENT);
        boolean second = store.replaceMarker(queued.running("task", Instant.now()), MarkerSnapshot.ABSENT);
        // then
        assertThat(first).isTrue();
        assertThat(second).isFalse();
        assertThat(store.markerSnapshot(id).state()).map(JobState::status).contains(JobStatus.CANCELLED);
    }

    @Test
    void readMarker_shouldBeAbsent_whenThereIsNone() {
        assertThat(store.markerSnapshot(UUID.randomUUID().toString())).isEqualTo(MarkerSnapshot.ABSENT);
    }

    private static InferenceJob job(String id) {
        return new InferenceJob(id, Task.GENERATE, "p", 1, 0, 1, null, null, null, null, null, Instant.now());
    }

    private static JobResult result(String id, String text) {
        var job = new InferenceJob(id, Task.GENERATE, "p", 1, 0, 1, null, null, null, null, null, null);
        return JobResult.succeeded(job, JobResult.Output.text(text, JobResult.Usage.of(1, 1), "stop"),
                new JobResult.Provenance(Tier.of("small"), "m", "v", "t", 1, 0L, 0L), Instant.now());
    }
}
