package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRecord;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Each result the notifier handles becomes one usage record of its caller (S3Proxy): once however often its event
 * arrives, for a batch line too, never for a job of no caller; a record that arrives after its day was settled takes
 * the day's summary back.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
class UsageAccountingTest {
    @InjectLocalAws
    LocalAws aws;

    private static Owner newCaller() {
        return OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", UUID.randomUUID().toString()));
    }

    private static JobResult result(Owner owner, Instant at) {
        InferenceJob job = new InferenceJob(UUID.randomUUID().toString(), Task.GENERATE, "Hello", 16, 0.7, 1.0, null,
                null, null, null, null, at.minusSeconds(5));
        if (owner != null) {
            job = job.withKey(JobKey.submitted(owner, job.requestId()));
        }
        return JobResult.succeeded(job, JobResult.Output.text("Hi.", JobResult.Usage.of(7, 3), "stop"),
                new JobResult.Provenance(Tier.of("small"), "qwen", "v", null, 1, 10L, 2_500L), at);
    }

    @Test
    void notify_shouldWriteOneUsageRecord_whenTheSameResultEventArrivesTwice() {
        // given
        Owner owner = newCaller();
        Instant now = Instant.now();
        JobResult result = result(owner, now);
        String event = event(put(result));

        // when
        invoke(event);
        invoke(event);

        // then
        LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
        List<String> keys = keys(UsageLayout.dayPrefix(owner, day));
        assertThat(keys).singleElement().satisfies(key -> assertThat(UsageRecord.parse(day, key.substring(
                UsageLayout.dayPrefix(owner, day).length()))).contains(new UsageRecord(result.requestId(), day,
                JobStatus.SUCCEEDED, "small", "qwen", 7, 3, 2_500, false)));
    }

    @Test
    void notify_shouldCountABatchLine_butNotAJobOfNoCaller() {
        // given
        Owner owner = newCaller();
        Instant now = Instant.now();
        JobResult line = result(owner, now).withBatch(new BatchMember(BatchIds.newBatchId(UUID.randomUUID()), 0,
                1, 1));
        JobResult ofTheQueue = result(null, now);

        // when
        invoke(event(put(line)));
        invoke(event(put(ofTheQueue)));

        // then
        assertThat(keys(UsageLayout.dayPrefix(owner, LocalDate.ofInstant(now, ZoneOffset.UTC))))
                .singleElement().asString().contains(line.requestId());
        assertThat(keys(UsageLayout.RECORDS_PREFIX)).noneMatch(key -> key.contains(ofTheQueue.requestId()));
    }

    @Test
    void notify_shouldTakeBackTheDaysSummary_whenARecordArrivesAfterTheDayWasSettled() {
        // given: a summary of a day long past, and a result of that day whose event comes only now
        Owner owner = newCaller();
        Instant longAgo = Instant.now().minus(3, ChronoUnit.DAYS);
        LocalDate day = LocalDate.ofInstant(longAgo, ZoneOffset.UTC);
        putRaw(UsageLayout.summaryKey(owner, day), JobJson.write(DaySummary.empty(day)));
        Instant today = Instant.now();
        putRaw(UsageLayout.summaryKey(owner, LocalDate.ofInstant(today, ZoneOffset.UTC).minusDays(1)),
                JobJson.write(DaySummary.empty(day.minusDays(1))));

        // when
        invoke(event(put(result(owner, longAgo))));
        invoke(event(put(result(owner, today))));

        // then: the old day is recomputed by the next query; a record of today leaves other days alone
        assertThat(keys(UsageLayout.summaryKey(owner, day))).isEmpty();
        assertThat(keys(UsageLayout.dayPrefix(owner, day))).hasSize(1);
        assertThat(keys(UsageLayout.SUMMARIES_PREFIX + owner.hex() + "/")).hasSize(1);
    }

    private String put(JobResult result) {
        String key = JobLayout.resultKey(result.requestId());
        putRaw(key, JobJson.write(result));
        return key;
    }

    private void putRaw(String key, String text) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(key).contentType("application/json"),
                    RequestBody.fromString(text, StandardCharsets.UTF_8));
        }
    }

    private List<String> keys(String prefix) {
        try (S3Client s3 = aws.newS3Client()) {
            return s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(prefix)).contents().stream()
                    .map(o -> o.key()).toList();
        }
    }

    private static String event(String key) {
        return sample("s3-result-succeeded.json").replace("results/"
                + ResultNotifierHandlerTest.A + ".json", key);
    }
}
