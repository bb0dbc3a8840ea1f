package io.gpupipe.model.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CacheEntryTest {
    private static final Instant THEN = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");
    private static final String SOURCE = "11111111-1111-4111-8111-111111111111";
    private static final String HIT = "22222222-2222-4222-8222-222222222222";
    private static final String VERSION = "repo@" + "b".repeat(40) + "+tag";

    @Test
    void answer_shouldBeACachedSuccessNamingItsSource_whenATextEntryAnswersAnotherRequest() {
        // given
        InferenceJob source = job(SOURCE, Task.GENERATE, null);
        CacheKey key = CacheKey.of(VERSION, source);
        JobResult produced = JobResult.succeeded(source, JobResult.Output.text("Once upon a time",
                JobResult.Usage.of(4, 5), "stop"), new JobResult.Provenance(Tier.of("small"), "m", VERSION,
                "arn:task", 1, 10L, 200L), THEN);
        CacheEntry entry = JobJson.read(JobJson.write(CacheEntry.of(key, produced, THEN)), CacheEntry.class);
        InferenceJob hit = job(HIT, Task.GENERATE, "https://hooks.example.com/x");
        // when
        JobResult answer = entry.answer(hit, Tier.of("small"), NOW);
        // then
        assertThat(entry.answers(CacheKey.of(VERSION, hit), VERSION, Task.GENERATE)).isTrue();
        assertThat(entry.answers(CacheKey.of(VERSION, hit), VERSION + "x", Task.GENERATE)).isFalse();
        assertThat(answer.requestId()).isEqualTo(HIT);
        assertThat(answer.isCached()).isTrue();
        assertThat(answer.cachedFrom()).isEqualTo(SOURCE);
        assertThat(answer.result()).isEqualTo(produced.result());
        assertThat(answer.modelVersion()).isEqualTo(VERSION);
        assertThat(answer.callbackUrl()).isEqualTo("https://hooks.example.com/x");
        assertThat(answer.taskArn()).isNull();
        assertThat(answer.attempts()).isNull();
        assertThat(answer.timestamp()).isEqualTo(NOW);
    }

    @Test
    void speechEntry_shouldPointAtTheCachesOwnAudio_andItsAnswerAtTheHitsOwn() {
        // given
        InferenceJob source = job(SOURCE, Task.SPEECH, null);
        CacheKey key = CacheKey.of(VERSION, source);
        JobResult produced = JobResult.succeeded(source, JobResult.Output.audio(JobLayout.audioKey(SOURCE), "wav",
                24_000, 1_500), new JobResult.Provenance(Tier.of("speech"), "tts", VERSION, "arn", 1, 1L, 2L), THEN);
        // when
        CacheEntry entry = CacheEntry.of(key, produced, THEN);
        JobResult answer = entry.answer(job(HIT, Task.SPEECH, null), Tier.of("speech"), NOW);
        // then
        assertThat(entry.output().audioKey()).isEqualTo("cache/" + key.hex() + "." + SOURCE + ".wav");
        assertThat(answer.result().audioKey()).isEqualTo("results/" + HIT + ".wav");
        assertThat(answer.result().durationMs()).isEqualTo(1_500);
        assertThat(answer.result().sampleRate()).isEqualTo(24_000);
    }

    @Test
    void of_shouldRefuse_whenTheResultIsItselfCachedOrFailed() {
        InferenceJob source = job(SOURCE, Task.GENERATE, null);
        CacheKey key = CacheKey.of(VERSION, source);
        JobResult failed = JobResult.failed(source, JobResult.JobError.of("model_error", "no"), null, THEN);
        assertThatThrownBy(() -> CacheEntry.of(key, failed, NOW)).isInstanceOf(IllegalArgumentException.class);
        JobResult produced = JobResult.succeeded(source, JobResult.Output.text("t", JobResult.Usage.of(1, 1), "stop"),
                new JobResult.Provenance(Tier.of("small"), "m", VERSION, "arn", 1, 1L, 1L), THEN);
        JobResult answer = CacheEntry.of(key, produced, THEN).answer(job(HIT, Task.GENERATE, null), Tier.of("small"),
                NOW);
        assertThatThrownBy(() -> CacheEntry.of(key, answer, NOW)).isInstanceOf(IllegalArgumentException.class);
    }

    private static InferenceJob job(String id, Task task, String callbackUrl) {
        return new InferenceJob(id, task, "Hello there", 16, 0.0, 1.0, null, null, null, callbackUrl, null, NOW);
    }
}
