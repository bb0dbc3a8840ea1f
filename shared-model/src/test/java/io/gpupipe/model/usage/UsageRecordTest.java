package io.gpupipe.model.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** A job's usage record: derived from its result alone, and its file name, which holds every field. */
class UsageRecordTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final String OWNER = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://issuer", "alice")).value();
    private static final Instant LATE_EVENING = Instant.parse("2026-12-01T23:59:59.900Z");

    private static JobResult succeeded(String owner, Boolean cached, Long processingMs) {
        return new JobResult(ID, JobStatus.SUCCEEDED, Task.GENERATE, JobResult.Output.text("Once", JobResult.Usage.of(
                12, 30), "stop"), null, Tier.of("small"), "qwen2.5-7b-instruct-awq", "v1", processingMs, 5L, 1,
                null, null, LATE_EVENING, cached, Boolean.TRUE.equals(cached) ? "other" : null, null, null, null,
                owner, "client-id");
    }

    @Test
    void of_shouldCountTokensAndInferenceTime_onTheUtcDayTheResultWasWritten() {
        UsageRecord record = UsageRecord.of(succeeded(OWNER, null, 1_234L)).orElseThrow();

        assertThat(record).isEqualTo(new UsageRecord(ID, LocalDate.parse("2026-12-01"), JobStatus.SUCCEEDED, "small",
                "qwen2.5-7b-instruct-awq", 12, 30, 1_234, false));
    }

    @Test
    void of_shouldCountACacheHitWithoutTokensOrInferenceTime() {
        UsageRecord record = UsageRecord.of(succeeded(OWNER, true, null)).orElseThrow();

        assertThat(record.cached()).isTrue();
        assertThat(record.promptTokens() + record.completionTokens() + record.inferenceMs()).isZero();
    }

    @Test
    void of_shouldCountAFailureWithoutTierOrModel() {
        JobResult deadLetter = JobResult.failed(ID, Task.GENERATE, null, JobResult.JobError.of("dead_lettered", "x"),
                null, LATE_EVENING).withOwner(OWNER, null);

        UsageRecord record = UsageRecord.of(deadLetter).orElseThrow();

        assertThat(record.status()).isEqualTo(JobStatus.FAILED);
        assertThat(record.tier()).isNull();
        assertThat(record.model()).isNull();
        assertThat(record.inferenceMs()).isZero();
    }

    @Test
    void of_shouldCountNothing_forAJobOfNoCallerOrWithoutATimestamp() {
        assertThat(UsageRecord.of(succeeded(null, null, 1L))).isEmpty();
        assertThat(UsageRecord.of(succeeded(Owner.QUEUE.value(), null, 1L))).isEmpty();
        assertThat(UsageRecord.of(succeeded("sha256:not-a-hash", null, 1L))).isEmpty();
        JobResult noTime = new JobResult(ID, JobStatus.FAILED, Task.GENERATE, null, null, null, null, null, null,
                null, null, null, null, null).withOwner(OWNER, null);
        assertThat(UsageRecord.of(noTime)).isEmpty();
    }

    @Test
    void fileName_shouldParseBackToTheSameRecord_whateverCharactersTheModelHas() {
        for (String model : new String[] {"Qwen/Qwen2.5-7B-Instruct-AWQ", "a~b c+d*e%f.g", "ünï", null}) {
            UsageRecord record = new UsageRecord(ID, LocalDate.parse("2026-12-01"), JobStatus.FAILED, "large-2",
                    model, 1, 2, 3, false);

            String name = record.fileName();

            assertThat(name).startsWith(ID + "~failed~").endsWith(".json").doesNotContain("/").doesNotContain(" ");
            assertThat(UsageRecord.parse(record.day(), name)).contains(record);
        }
    }

    @Test
    void parse_shouldIgnoreNamesItDidNotWrite() {
        LocalDate day = LocalDate.parse("2026-12-01");
        assertThat(UsageRecord.parse(day, "summary.json")).isEmpty();
        assertThat(UsageRecord.parse(day, ID + "~failed~-~-~1~2~3~0.txt")).isEmpty();
        assertThat(UsageRecord.parse(day, ID + "~cancelled~-~-~1~2~3~0.json")).isEmpty();
        assertThat(UsageRecord.parse(day, ID + "~failed~-~-~x~2~3~0.json")).isEmpty();
        assertThat(UsageRecord.parse(day, ID + "~failed~-~-~-1~2~3~0.json")).isEmpty();
        assertThat(UsageRecord.parse(day, ID + "~failed~-~-~1~2~3~2.json")).isEmpty();
        assertThat(UsageRecord.parse(day, "not-an-id~failed~-~-~1~2~3~0.json")).isEmpty();
        assertThat(UsageRecord.parse(day, ID + "~failed~-~-~1~2~3~0~extra.json")).isEmpty();
    }

    @Test
    void constructor_shouldCutALongModelName_andRefuseACacheHitWithInferenceTime() {
        String longModel = "m".repeat(UsageRecord.MAX_MODEL_CHARS + 50);
        UsageRecord record = new UsageRecord(ID, LocalDate.EPOCH, JobStatus.SUCCEEDED, "small", longModel, 0, 0, 0,
                false);
        assertThat(record.model()).hasSize(UsageRecord.MAX_MODEL_CHARS);
        assertThat(UsageLayout.recordKey(new Owner(OWNER), record).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .hasSizeLessThan(1024);

        assertThatThrownBy(() -> new UsageRecord(ID, LocalDate.EPOCH, JobStatus.SUCCEEDED, "small", null, 0, 0, 5,
                true)).hasMessageContaining("cache hit");
        assertThatThrownBy(() -> new UsageRecord(ID, LocalDate.EPOCH, JobStatus.CANCELLED, null, null, 0, 0, 0,
                false)).hasMessageContaining("succeeded, failed");
    }

    @Test
    void layout_shouldKeepEachCallersDaysApart_andReadBackOnlyRecordsOfTheDay() {
        Owner alice = new Owner(OWNER);
        UsageRecord record = new UsageRecord(ID, LocalDate.parse("2026-12-01"), JobStatus.SUCCEEDED, "small", null,
                1, 1, 1, false);
        String prefix = UsageLayout.dayPrefix(alice, record.day());

        assertThat(UsageLayout.recordKey(alice, record)).isEqualTo("usage/records/" + alice.hex() + "/2026-12-01/"
                + record.fileName());
        assertThat(UsageLayout.fileNameOf(prefix, UsageLayout.recordKey(alice, record))).contains(record.fileName());
        assertThat(UsageLayout.fileNameOf(prefix, prefix + "nested/x.json")).isEmpty();
        assertThat(UsageLayout.summaryKey(alice, record.day())).isEqualTo("usage/summaries/" + alice.hex()
                + "/2026-12-01.json");
    }
}
