package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which lines a retry runs again, when a batch can be retried, and how the two batches name each other. */
class BatchRetryTest {
    private static final Owner OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    private static final String OLD = BatchIds.newBatchId(UUID.fromString("1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"));
    private static final String NEW = BatchIds.newBatchId(UUID.fromString("6f5e4d3c-2b1a-4f0e-9d8c-7b6a5f4e3d2c"));
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final BatchPlan PLAN = new BatchPlan(6, List.of(new ChunkPlan(0, 1, 0, 600, 6, List.of())));
    private static final BatchRequest REQUEST = new BatchRequest(BatchLayout.inputKey(OWNER, UUID.fromString(
            "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d")), BatchEndpoint.COMPLETIONS, "24h",
            Map.of("description", "nightly eval"), "https://hooks.example.com/batches");

    @Test
    void isRetried_shouldRetryFailedExpiredAndCancelledLines_only() {
        assertThat(LineOutcome.FAILED.isRetried()).isTrue();
        assertThat(LineOutcome.EXPIRED.isRetried()).as("expired lines never started").isTrue();
        assertThat(LineOutcome.CANCELLED.isRetried()).as("cancelled lines never started").isTrue();
        assertThat(LineOutcome.SUCCEEDED.isRetried()).isFalse();
        assertThat(LineOutcome.INVALID.isRetried()).as("refused again as it is").isFalse();
    }

    @Test
    void retried_shouldCountFailedExpiredAndCancelledLines() {
        // given: succeeded, failed, expired, cancelled, invalid
        LineCounts counts = new LineCounts(5, 2, 3, 4, 7);

        // then
        assertThat(counts.retried()).isEqualTo(9);
        assertThat(counts.of(LineOutcome.INVALID)).isEqualTo(7);
        assertThat(LineCounts.ZERO.retried()).isZero();
    }

    @Test
    void linesToRetry_shouldPickFailedExpiredCancelledAndUnendedJobLines_inInputOrder() {
        // given: lines 1..6: succeeded, failed, invalid (never a job), expired, cancelled, not ended
        ChunkManifest manifest = new ChunkManifest(OLD, 0, 1, List.of(job(1), job(2),
                new ChunkManifest.Entry(3, "c3", null, LineError.of(LineError.INVALID_URL, "wrong url")), job(4),
                job(5), job(6)));
        ChunkProgress progress = ChunkProgress.ofKeys(List.of(done(1, LineOutcome.SUCCEEDED),
                done(2, LineOutcome.FAILED), done(3, LineOutcome.INVALID), done(4, LineOutcome.EXPIRED),
                done(5, LineOutcome.CANCELLED)));

        // when
        List<Integer> lines = BatchRetry.linesToRetry(manifest, progress);

        // then
        assertThat(lines).containsExactly(2, 4, 5, 6);
    }

    @Test
    void linesToRetry_shouldKeepALineWhoseCancelledJobRanAnyway_byItsResult() {
        // given: the cancel and the result raced; the result is the truth
        ChunkManifest manifest = new ChunkManifest(OLD, 0, 1, List.of(job(1)));
        ChunkProgress progress = ChunkProgress.ofKeys(List.of(done(1, LineOutcome.CANCELLED),
                done(1, LineOutcome.SUCCEEDED)));

        // then
        assertThat(BatchRetry.linesToRetry(manifest, progress)).isEmpty();
    }

    @Test
    void decide_shouldRefuseABatchThatHasNotEnded_whateverItsCounts() {
        for (BatchState running : List.of(created(), created().planned(PLAN, T0), created().cancelling(T0),
                created().planned(PLAN, T0).cancelling(T0))) {
            assertThat(BatchRetry.decide(running, new LineCounts(1, 1, 0, 0, 0)))
                    .isEqualTo(new BatchRetry.Decision.NotEnded(running.status()));
        }
    }

    @Test
    void decide_shouldRetryTheFailedExpiredAndCancelledLines_ofACompletedCancelledOrExpiredBatch() {
        // given
        LineCounts cancelledHalfway = new LineCounts(2, 0, 0, 2, 1);
        BatchState cancelled = created().planned(PLAN, T0).cancelling(T0).finished(cancelledHalfway, "out", "err",
                T0, T0);
        LineCounts someFailed = new LineCounts(4, 1, 0, 0, 1);
        BatchState completed = created().planned(PLAN, T0).finished(someFailed, "out", "err", T0, T0);
        LineCounts someExpired = new LineCounts(3, 0, 3, 0, 0);
        BatchState expired = created().planned(PLAN, T0).finished(someExpired, "out", "err", T0, T0);

        // then
        assertThat(cancelled.status()).isEqualTo(BatchStatus.CANCELLED);
        assertThat(BatchRetry.decide(cancelled, cancelledHalfway)).isEqualTo(new BatchRetry.Decision.Retry(2));
        assertThat(BatchRetry.decide(completed, someFailed)).isEqualTo(new BatchRetry.Decision.Retry(1));
        assertThat(expired.status()).isEqualTo(BatchStatus.EXPIRED);
        assertThat(BatchRetry.decide(expired, someExpired)).isEqualTo(new BatchRetry.Decision.Retry(3));
    }

    @Test
    void decide_shouldFindNothingToRetry_whenEveryLineSucceededOrWasInvalid_orTheInputWasRefused() {
        // given
        LineCounts allGood = new LineCounts(5, 0, 0, 0, 1);
        BatchState completed = created().planned(PLAN, T0).finished(allGood, "out", "err", T0, T0);
        BatchState failed = created().failed(List.of(BatchError.of("empty_file", "no line")), T0);

        // then
        assertThat(BatchRetry.decide(completed, allGood)).isInstanceOf(BatchRetry.Decision.NothingToRetry.class);
        assertThat(BatchRetry.decide(failed, LineCounts.ZERO)).isInstanceOfSatisfying(
                BatchRetry.Decision.NothingToRetry.class, n -> assertThat(n.why()).contains("input file"));
    }

    @Test
    void decide_shouldRefuseASecondRetry_namingTheFirst() {
        // given
        LineCounts counts = new LineCounts(1, 1, 0, 0, 0);
        BatchState retried = created().planned(PLAN, T0).finished(counts, "out", "err", T0, T0).withRetriedBy(NEW);

        // then
        assertThat(BatchRetry.decide(retried, counts)).isEqualTo(new BatchRetry.Decision.AlreadyRetried(NEW));
        assertThat(BatchRetry.decide(retried.withRetriedBy(null), counts))
                .as("a retry taken back frees the batch").isEqualTo(new BatchRetry.Decision.Retry(1));
    }

    @Test
    void retryOf_shouldCopyTheBatchAndLinkBothWaysInTheMetadata() throws Exception {
        // given
        BatchState old = created().planned(PLAN, T0).finished(new LineCounts(1, 1, 0, 0, 0), "out", "err", T0, T0);
        String input = BatchLayout.inputKey(OWNER, UUID.fromString("3c2b1a0f-9e8d-4c7b-a6f5-e4d3c2b1a0f9"));

        // when
        BatchState retry = BatchState.retryOf(old, NEW, input, T0.plusSeconds(60));
        BatchState linked = old.withRetriedBy(NEW);

        // then: a new batch of the same owner, endpoint, metadata and callback, over its own input
        assertThat(retry.status()).isEqualTo(BatchStatus.VALIDATING);
        assertThat(retry.ownedBy()).isEqualTo(OWNER);
        assertThat(retry.endpoint()).isEqualTo(BatchEndpoint.COMPLETIONS);
        assertThat(retry.inputFileId()).isEqualTo(input);
        assertThat(retry.callbackUrl()).isEqualTo(REQUEST.callbackUrl());
        assertThat(retry.plan()).isNull();
        assertThat(retry.expiresAt()).isEqualTo(T0.plusSeconds(60 + 86_400));
        assertThat(BatchObject.of(retry).metadata()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "description", "nightly eval", BatchState.RETRY_OF_KEY, OLD));
        assertThat(BatchObject.of(linked).metadata()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "description", "nightly eval", BatchState.RETRIED_BY_KEY, NEW));
        assertThat(linked.status()).isEqualTo(old.status());
        assertThat(linked.metadata()).as("the caller's own pairs are kept as they were").isEqualTo(old.metadata());
        assertThat(JobJson.read(JobJson.write(retry), BatchState.class)).isEqualTo(retry);
        assertThat(JobJson.read(JobJson.write(linked), BatchState.class)).isEqualTo(linked);
    }

    @Test
    void shownMetadata_shouldPutTheLinksOverACallersPairOfTheSameName_andStayNullWithoutAny() {
        // given
        BatchState plain = BatchState.created(OLD, new BatchRequest(REQUEST.inputFileId(), REQUEST.endpoint(), "24h",
                null, null), OWNER, T0);
        BatchState spoofed = BatchState.created(OLD, new BatchRequest(REQUEST.inputFileId(), REQUEST.endpoint(),
                "24h", Map.of(BatchState.RETRIED_BY_KEY, "mine"), null), OWNER, T0);

        // then
        assertThat(plain.shownMetadata()).isNull();
        assertThat(spoofed.shownMetadata()).containsEntry(BatchState.RETRIED_BY_KEY, "mine");
        assertThat(spoofed.withRetriedBy(NEW).shownMetadata()).containsExactly(Map.entry(
                BatchState.RETRIED_BY_KEY, NEW));
    }

    private static BatchState created() {
        return BatchState.created(OLD, REQUEST, OWNER, T0);
    }

    private static ChunkManifest.Entry job(int line) {
        return new ChunkManifest.Entry(line, "c" + line, BatchIds.jobId(OLD, line), null);
    }

    private static String done(int line, LineOutcome outcome) {
        return BatchLayout.doneKey(OLD, 0, line, outcome);
    }
}
