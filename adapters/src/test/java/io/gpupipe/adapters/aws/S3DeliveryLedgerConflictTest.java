package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.ConditionalConflictStandIn;
import io.gpupipe.model.JobLayout;
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
 * The notifier's delivery ledger against S3's 409: a duplicated S3 event's notifier records the same entry at the
 * same time ("Conditional writes", Amazon S3 User Guide: 409 ConditionalRequestConflict, retry). Its records are
 * create-only, "the first record wins": a concurrent record is not a failure of the notification.
 */
class S3DeliveryLedgerConflictTest {
    private static LocalAws aws;
    private static S3Client plain;
    private static S3Client conflicting;
    private static ConditionalConflictStandIn conflicts;
    private static S3DeliveryLedger ledger;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        plain = aws.newS3Client();
        conflicts = new ConditionalConflictStandIn();
        conflicting = aws.newS3Client(List.of(conflicts));
        ledger = new S3DeliveryLedger(conflicting, Clock.fixed(Instant.parse("2026-12-01T03:00:00Z"), ZoneOffset.UTC));
    }

    @AfterAll
    static void stop() {
        conflicting.close();
        plain.close();
        aws.close();
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
}
