package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRecord;
import io.gpupipe.model.usage.UsageTotals;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The usage store against S3Proxy: records read back from their keys alone, one per job, summaries written once. */
class S3UsageStoreTest {
    private static final LocalDate DAY = LocalDate.parse("2026-12-01");
    private static LocalAws aws;
    private static S3Client s3;
    private static S3UsageStore store;

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        store = new S3UsageStore(s3, aws.bucket());
    }

    @AfterAll
    static void stopLocalAws() {
        s3.close();
        aws.close();
    }

    private static Owner newCaller() {
        return OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://issuer", UUID.randomUUID().toString()));
    }

    private static UsageRecord record(String model) {
        return new UsageRecord(UUID.randomUUID().toString(), DAY, JobStatus.SUCCEEDED, "small", model, 3, 4, 500,
                false);
    }

    @Test
    void records_shouldListOnlyTheCallersDay_oneRecordPerJob_whenARecordIsWrittenTwice() {
        // given
        Owner alice = newCaller();
        Owner bob = newCaller();
        UsageRecord once = record("Qwen/Qwen2.5-7B-Instruct-AWQ");
        UsageRecord other = record(null);
        store.record(alice, once);
        store.record(alice, once);
        store.record(alice, other);
        store.record(bob, record("m"));
        store.record(alice, new UsageRecord(UUID.randomUUID().toString(), DAY.plusDays(1), JobStatus.FAILED, null,
                null, 0, 0, 0, false));
        s3.putObject(b -> b.bucket(aws.bucket()).key(UsageLayout.dayPrefix(alice, DAY) + "notes.txt"),
                RequestBody.fromString("not a record"));

        // when
        List<UsageRecord> records = store.records(alice, DAY);

        // then
        assertThat(records).containsExactlyInAnyOrder(once, other);
        assertThat(s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(UsageLayout.dayPrefix(alice, DAY))).contents())
                .hasSize(3);
    }

    @Test
    void summary_shouldBeWrittenOnce_andForgottenOnALateRecord() {
        // given
        Owner alice = newCaller();
        DaySummary first = DaySummary.of(DAY, List.of(record("a")));
        DaySummary second = DaySummary.of(DAY, List.of(record("a"), record("b")));
        assertThat(store.summary(alice, DAY)).isEmpty();

        // when
        store.storeSummary(alice, first);
        store.storeSummary(alice, second);

        // then: the first stays, and reads back as it was written
        assertThat(store.summary(alice, DAY)).contains(first);
        assertThat(store.summary(alice, DAY).orElseThrow().rows().get(0).totals())
                .isEqualTo(new UsageTotals(1, 0, 3, 4, 500, 0));

        // when: a late record takes it back
        store.forgetSummary(alice, DAY);
        store.forgetSummary(alice, DAY);

        // then
        assertThat(store.summary(alice, DAY)).isEmpty();
    }
}
