package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.ConditionalConflictStandIn;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The stores against S3's 409 ConditionalRequestConflict: another conditional write of the same key is in progress
 * when theirs arrives ("Conditional writes", Amazon S3 User Guide: retry on 409). The dead-letter result write (a
 * worker's result landing at the same time) and the notifier's delivery ledger (a duplicated event's notifier
 * recording the same entry) both threw on it before they shared {@link S3Objects}.
 */
class ConditionalConflictTest {
    private static final Instant NOW = Instant.parse("2026-12-01T03:00:00Z");
    private static LocalAws aws;
    private static S3Client plain;
    private static S3Client conflicting;
    private static ConditionalConflictStandIn conflicts;
    private static S3JobStore store;
    private static S3DeliveryLedger ledger;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        plain = aws.newS3Client();
        conflicts = new ConditionalConflictStandIn();
        conflicting = aws.newS3Client(List.of(conflicts));
        store = new S3JobStore(conflicting, aws.bucket());
        ledger = new S3DeliveryLedger(conflicting, Clock.fixed(NOW, ZoneOffset.UTC));
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

    @Test
    void recordPublished_shouldKeepTheFirstRecord_whenAConcurrentRecordIsInProgress() {
        // given: another notifier of the same result records its publish while this one does (S3 answers 409)
        String id = UUID.randomUUID().toString();
        String key = JobLayout.notificationKey(id, S3DeliveryLedger.PUBLISHED);
        conflicts.conflictOn(key, () -> plain.putObject(b -> b.bucket(aws.bucket()).key(key),
                RequestBody.fromString("{\"messageId\":\"the-other\",\"at\":\"2026-12-01T02:59:59Z\"}")));
        // when
        ledger.recordPublished(aws.bucket(), id, "this-one");
        // then: no failure, and the first record stands
        assertThat(conflicts.conflictedKeys()).contains(key);
        assertThat(ledger.publishedMessageId(aws.bucket(), id)).contains("the-other");
    }

    @Test
    void recordCallbackDelivered_shouldRecordIt_whenTheConflictingRecordLeftNothing() {
        // given: a concurrent conditional write of the entry was in progress and failed (S3 answers 409)
        String id = UUID.randomUUID().toString();
        conflicts.conflictOn(JobLayout.notificationKey(id, S3DeliveryLedger.CALLBACK), () -> { });
        // when
        ledger.recordCallbackDelivered(aws.bucket(), id, 200);
        // then: the delivery is recorded, so a duplicated event does not post the callback again
        assertThat(ledger.callbackDelivered(aws.bucket(), id)).isTrue();
    }

    private static JobResult failed(String id, String code) {
        return JobResult.failed(id, Task.GENERATE, null, JobResult.JobError.of(code, code), null, NOW);
    }
}
