package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.adapters.aws.AwsFailures;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.retry.RetryPolicy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Which failed result writes are tried again: only those a later attempt may fix, within the policy's attempts. */
class ResultWritesTest {
    /** No pauses: the attempts are what is under test. */
    private static final RetryPolicy FOUR_ATTEMPTS = RetryPolicy.immediate(4);

    private final AtomicInteger calls = new AtomicInteger();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    /** A write that throws {@code failure} {@code failures} times, then answers true. */
    private BooleanSupplier failing(int failures, RuntimeException failure) {
        return () -> {
            if (calls.incrementAndGet() <= failures) {
                throw failure;
            }
            return true;
        };
    }

    /** What the store's adapter throws once S3 answered {@code status} (S3Objects.unavailable). */
    private static StoreUnavailableException s3Answered(int status) {
        S3Exception answer = (S3Exception) S3Exception.builder().statusCode(status).build();
        return new StoreUnavailableException("cannot write", answer, AwsFailures.isRetryable(answer));
    }

    @Test
    void persistently_shouldWriteAgain_whenS3WasUnavailable() {
        // when S3 answered 503 twice (after the SDK's own attempts)
        boolean written = ResultWrites.persistently(FOUR_ATTEMPTS, "a result", failing(2, s3Answered(503)));
        // then
        assertThat(written).isTrue();
        assertThat(calls).hasValue(3);
    }

    @Test
    void persistently_shouldWriteAgain_whenS3CouldNotBeReached() {
        boolean written = ResultWrites.persistently(FOUR_ATTEMPTS, "a result",
                failing(3, SdkClientException.create("connection refused")));
        assertThat(written).isTrue();
        assertThat(calls).hasValue(4);
    }

    @Test
    void persistently_shouldRethrowTheLastFailure_afterThePolicysAttempts() {
        StoreUnavailableException outage = s3Answered(500);
        assertThatThrownBy(() -> ResultWrites.persistently(FOUR_ATTEMPTS, "a result", failing(10, outage)))
                .isSameAs(outage);
        assertThat(calls).hasValue(4);
    }

    @Test
    void persistently_shouldNotWriteAgain_whenTheStoreAlreadyRetriedConflicts() {
        // given the store's own 409 retries ran out: a fourth layer of attempts would multiply them
        StoreUnavailableException conflicts = s3Answered(409);
        // then
        assertThatThrownBy(() -> ResultWrites.persistently(FOUR_ATTEMPTS, "a result", failing(10, conflicts)))
                .isSameAs(conflicts);
        assertThat(calls).hasValue(1);
    }

    @Test
    void persistently_shouldNotWriteAgain_whenS3RefusedTheRequest() {
        StoreUnavailableException denied = s3Answered(403);
        assertThatThrownBy(() -> ResultWrites.persistently(FOUR_ATTEMPTS, "a result", failing(10, denied)))
                .isSameAs(denied);
        assertThat(calls).hasValue(1);
    }

    @Test
    void persistently_shouldNotWriteAgain_afterABug() {
        IllegalStateException bug = new IllegalStateException("bug");
        assertThatThrownBy(() -> ResultWrites.persistently(FOUR_ATTEMPTS, "a result", failing(10, bug)))
                .isSameAs(bug);
        assertThat(calls).hasValue(1);
    }

    @Test
    void persistently_shouldStopAtOnce_whenInterrupted() {
        StoreUnavailableException outage = s3Answered(503);
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> ResultWrites.persistently(FOUR_ATTEMPTS, "a result", failing(10, outage)))
                .isSameAs(outage);
        assertThat(calls).hasValue(1);
    }
}
