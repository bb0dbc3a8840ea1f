package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.ConditionalConflictStandIn;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.Task;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The dead-letter result write against S3's 409: a worker's result write of the same job is in progress when the
 * dead-letter one arrives ("Conditional writes", Amazon S3 User Guide: 409 ConditionalRequestConflict, retry).
 */
class S3JobStoreConflictTest {
    private static final Instant NOW = Instant.parse("2026-12-01T03:00:00Z");
    private static LocalAws aws;
    private static S3Client plain;
    private static S3Client conflicting;
    private static ConditionalConflictStandIn conflicts;
    private static S3JobStore store;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        plain = aws.newS3Client();
        conflicts = new ConditionalConflictStandIn();
        conflicting = aws.newS3Client(List.of(conflicts));
        store = new S3JobStore(conflicting, null, aws.bucket());
    }

    @AfterAll
    static void stop() {
        conflicting.close();
        plain.close();
        aws.close();
    }

    @Test
    void putResultIfAbsent_shouldAnswerExistsAndKeepTheWorkersResult_whenTheWorkersWriteIsInProgress() {
        // given: the worker's result lands while the dead-letter write is in flight (S3 answers it 409)
        String id = UUID.randomUUID().toString();
        String workers = JobJson.write(failed(id, "model_error"));
        conflicts.conflictOn(JobLayout.resultKey(id), () -> plain.putObject(b -> b.bucket(aws.bucket())
                .key(JobLayout.resultKey(id)), RequestBody.fromString(workers)));
        // when
        boolean written = store.putResultIfAbsent(failed(id, "dead_lettered"));
        // then: settled as "a result exists" (the message is deleted), the worker's result untouched
        assertThat(conflicts.conflictedKeys()).contains(JobLayout.resultKey(id));
        assertThat(written).isFalse();
        assertThat(plain.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(id))).asUtf8String())
                .isEqualTo(workers);
    }

    @Test
    void putResultIfAbsent_shouldWriteTheResult_whenTheConflictingWriteLeftNothing() {
        // given: a concurrent conditional write was in progress and failed (S3 answers 409; a retry may succeed)
        String id = UUID.randomUUID().toString();
        conflicts.conflictOn(JobLayout.resultKey(id), () -> { });
        // when
        boolean written = store.putResultIfAbsent(failed(id, "dead_lettered"));
        // then
        assertThat(written).isTrue();
        assertThat(plain.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(id))).asUtf8String())
                .contains("dead_lettered");
    }

    private static JobResult failed(String id, String code) {
        return JobResult.failed(id, Task.GENERATE, null, JobResult.JobError.of(code, code), null, NOW);
    }
}
