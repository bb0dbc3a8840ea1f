package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.worker.consumption.RunningElsewhere;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The running claim against a marker other writers change: plain Java, the store held in memory. */
class MarkerClaimTest {
    private static final Instant SUBMITTED = Instant.parse("2026-12-04T01:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-04T01:00:05Z");
    private static final String TASK_ARN = "arn:aws:ecs:eu-west-1:123456789012:task/worker/abc";
    private static final int ATTEMPTS = 3;
    private static final Tier TIER = Tier.of("small");
    private static final int FIRST = 1;
    private static final int AGAIN = 2;

    private final InferenceJob job = new InferenceJob("job-1", Task.GENERATE, "hello", 16, 0.0, 1.0, null, null,
            null, null, null, SUBMITTED);
    private final InMemoryMarkers store = new InMemoryMarkers();
    private final MarkerClaim claim = new MarkerClaim(store, TIER, TASK_ARN, RetryPolicy.immediate(ATTEMPTS),
            RunningElsewhere.of(Duration.ofSeconds(20), 4, Duration.ofSeconds(30)), Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void claim_shouldMarkTheQueuedMarkerRunning_whenNoOneChangedIt() {
        // given
        store.put(JobState.queued(job, TIER, SUBMITTED));
        MarkerSnapshot read = store.markerSnapshot(job.requestId());

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, read, NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.RUNNING);
        JobState stored = store.markerSnapshot(job.requestId()).state().orElseThrow();
        assertThat(stored.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(stored.taskArn()).isEqualTo(TASK_ARN);
        assertThat(stored.startedAt()).isEqualTo(NOW);
    }

    @Test
    void claim_shouldCreateARunningMarker_whenTheJobCameWithoutOne() {
        // when
        MarkerClaim.Outcome outcome = claim.claim(job, MarkerSnapshot.ABSENT, NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.RUNNING);
        JobState stored = store.markerSnapshot(job.requestId()).state().orElseThrow();
        assertThat(stored.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(stored.tier()).isEqualTo(TIER);
        assertThat(stored.submittedAt()).isEqualTo(SUBMITTED);
    }

    @Test
    void claim_shouldLoseToTheClient_whenACancelLandsAfterTheRead() {
        // given
        JobState queued = JobState.queued(job, TIER, SUBMITTED);
        store.put(queued);
        MarkerSnapshot read = store.markerSnapshot(job.requestId());
        store.put(queued.cancelled(NOW));

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, read, NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.CANCELLED);
        assertThat(store.markerSnapshot(job.requestId()).state().orElseThrow().status())
                .isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void claim_shouldGoOn_whenAnotherDeliveryMarkedItRunningFirst_andThisDeliveryIsARedelivery() {
        // given: this message was delivered before (it may be the other task's own, released)
        JobState queued = JobState.queued(job, TIER, SUBMITTED);
        store.put(queued);
        MarkerSnapshot read = store.markerSnapshot(job.requestId());
        store.put(queued.running("another-task", NOW));

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, read, NOW, AGAIN);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.RUNNING);
        assertThat(store.markerSnapshot(job.requestId()).state().orElseThrow().taskArn()).isEqualTo("another-task");
    }

    @Test
    void claim_shouldBeADuplicate_whenAFirstDeliveryFindsAnotherTasksFreshRunAfterItsRead() {
        // given: another copy's task marks the job running between our read and our write
        JobState queued = JobState.queued(job, TIER, SUBMITTED);
        store.put(queued);
        MarkerSnapshot read = store.markerSnapshot(job.requestId());
        store.put(queued.running("another-task", NOW.minusSeconds(1)));

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, read, NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.DUPLICATE);
        assertThat(store.markerSnapshot(job.requestId()).state().orElseThrow().taskArn()).isEqualTo("another-task");
    }

    @Test
    void claim_shouldBeADuplicateWithoutWriting_whenAFirstDeliveryReadsAnotherTasksFreshRun() {
        // given
        store.put(JobState.queued(job, TIER, SUBMITTED).running("another-task", NOW.minusSeconds(100)));

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, store.markerSnapshot(job.requestId()), NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.DUPLICATE);
        assertThat(store.conditionalWrites).isZero();
    }

    @Test
    void claim_shouldTakeTheJobOver_whenAnotherTasksRunningMarkerIsStale() {
        // given: written 110 s ago, past 4 model calls of 20 s and the 30 s visibility timeout: that task died
        store.put(JobState.queued(job, TIER, SUBMITTED).running("another-task", NOW.minusSeconds(110)));

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, store.markerSnapshot(job.requestId()), NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.RUNNING);
        assertThat(store.markerSnapshot(job.requestId()).state().orElseThrow().taskArn()).isEqualTo(TASK_ARN);
    }

    @Test
    void claim_shouldRetryOverTheNewVersion_whenAQueuedMarkerWasRewritten() {
        // given: a resubmission rewrites the queued marker once, after the read
        JobState queued = JobState.queued(job, TIER, SUBMITTED);
        store.put(queued);
        MarkerSnapshot read = store.markerSnapshot(job.requestId());
        store.put(queued.requeued(NOW));

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, read, NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.RUNNING);
        assertThat(store.markerSnapshot(job.requestId()).state().orElseThrow().status())
                .isEqualTo(JobStatus.RUNNING);
        assertThat(store.conditionalWrites).isEqualTo(2);
    }

    @Test
    void claim_shouldGiveUpAsContended_whenEveryAttemptFindsANewQueuedVersion() {
        // given: another writer requeues the marker before each of our writes
        JobState queued = JobState.queued(job, TIER, SUBMITTED);
        store.put(queued);
        MarkerSnapshot read = store.markerSnapshot(job.requestId());
        store.beforeEachWrite = marker -> marker.requeued(NOW);

        // when
        MarkerClaim.Outcome outcome = claim.claim(job, read, NOW, FIRST);

        // then
        assertThat(outcome).isEqualTo(MarkerClaim.Outcome.CONTENDED);
        assertThat(store.conditionalWrites).isEqualTo(ATTEMPTS);
        assertThat(store.markerSnapshot(job.requestId()).state().orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
    }

    /**
     * A stand-in for the marker half of the S3 job store (S3 itself cannot be interleaved at will here), enforcing
     * its contract: every write makes a new ETag; a conditional write succeeds only over the version it expects
     * ({@code If-Match}), or, expecting no marker, only while there is none ({@code If-None-Match: *}).
     */
    private static final class InMemoryMarkers implements WorkerJobStore {
        private final Deque<MarkerSnapshot> versions = new ArrayDeque<>();
        private int conditionalWrites;
        private UnaryOperator<JobState> beforeEachWrite;

        void put(JobState marker) {
            versions.push(MarkerSnapshot.of(marker, "etag-" + (versions.size() + 1)));
        }

        @Override
        public MarkerSnapshot markerSnapshot(String requestId) {
            return versions.isEmpty() ? MarkerSnapshot.ABSENT : versions.peek();
        }

        @Override
        public boolean replaceMarker(JobState marker, MarkerSnapshot expected) {
            conditionalWrites++;
            if (beforeEachWrite != null && !versions.isEmpty()) {
                put(beforeEachWrite.apply(versions.peek().state().orElseThrow()));
            }
            if (!expected.eTag().equals(markerSnapshot(marker.requestId()).eTag())) {
                return false;
            }
            put(marker);
            return true;
        }

        @Override
        public boolean resultExists(String requestId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean putResultIfAbsent(JobResult result) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean putAudioIfAbsent(String requestId, byte[] wav) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean putEmbeddingsIfAbsent(String requestId, byte[] json) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<String> readPayload(String key) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<byte[]> readAudioHead(String requestId, int length) {
            throw new UnsupportedOperationException();
        }
    }
}
