package io.gpupipe.notifier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultEventTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final InferenceJob JOB = new InferenceJob(ID, Task.GENERATE, "hi", 16, 0.7, 1.0, null, null,
            null, "https://hooks.example.com/x", null, NOW);
    private static final JobResult.Provenance RUN = new JobResult.Provenance(Tier.of("small"), "mistral", "v1",
            "arn:task", 1, 10L, 20L);

    @Test
    void of_shouldCarryIdStatusTierAndLocation_whenSucceeded() {
        // given
        JobResult result = JobResult.succeeded(JOB, JobResult.Output.text("secret output", null, "stop"), RUN, NOW);

        // when
        ResultEvent event = ResultEvent.of(result, "gpupipe-results", "results/" + ID + ".json");
        @SuppressWarnings("unchecked")
        Map<String, Object> json = JobJson.read(event.toJson(), Map.class);

        // then
        assertThat(event.isSuccess()).isTrue();
        assertThat(json).containsEntry("requestId", ID).containsEntry("status", "succeeded")
                .containsEntry("tier", "small").containsEntry("task", "generate")
                .containsEntry("resultLocation", "s3://gpupipe-results/results/" + ID + ".json")
                .containsEntry("completedAt", "2026-11-29T12:00:00Z")
                .doesNotContainKeys("errorCode", "result", "callbackUrl", "success");
        assertThat(event.toJson()).doesNotContain("secret output");
    }

    @Test
    void of_shouldCarryErrorCode_whenFailed() {
        // given
        JobResult result = JobResult.failed(JOB, JobResult.JobError.of(ErrorCodes.MODEL_TIMEOUT, "slow"), RUN, NOW);

        // when
        ResultEvent event = ResultEvent.of(result, "b", "results/" + ID + ".json");

        // then
        assertThat(event.isSuccess()).isFalse();
        assertThat(event.errorCode()).isEqualTo("model_timeout");
    }

    @Test
    void of_shouldMarkACachedAnswer_andOnlyIt() {
        // given: a produced result, and the answer its cache entry gives another request
        String version = "repo@" + "b".repeat(40) + "+tag";
        String hitId = "22222222-2222-4222-8222-222222222222";
        JobResult produced = JobResult.succeeded(JOB, JobResult.Output.text("Once upon a time",
                JobResult.Usage.of(4, 5), "stop"), RUN, NOW);
        CacheEntry entry = CacheEntry.of(CacheKey.of(version, JOB), produced, NOW);
        JobResult answer = entry.answer(new InferenceJob(hitId, Task.GENERATE, "hi", 16, 0.7, 1.0, null, null, null,
                null, null, NOW), Tier.of("small"), NOW);

        // then
        assertThat(ResultEvent.of(answer, "b", JobLayout.resultKey(hitId)).cached()).isTrue();
        assertThat(ResultEvent.of(produced, "b", JobLayout.resultKey(ID)).cached()).isNull();
    }

    @Test
    void of_shouldCarryTheOwner_andTheClientsRequestId() {
        // given: a job submitted by an authenticated caller, stored under its owner-scoped id
        Owner alice = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
        InferenceJob job = JOB.withKey(JobKey.submitted(alice, JOB.requestId()));
        JobResult result = JobResult.failed(job, JobResult.JobError.of("x", "y"), null, NOW);

        // when
        ResultEvent event = ResultEvent.of(result, "bucket", "results/" + job.requestId() + ".json");

        // then
        assertThat(event.owner()).isEqualTo(alice.value());
        assertThat(event.requestId()).isEqualTo(ID);
        assertThat(event.resultLocation()).contains(job.requestId());
    }
}
