package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.backend.Wav;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Speech jobs on the speech tier's own queue, through the app's openai backend against the vLLM stand-in's
 * {@code /v1/audio/speech} (vLLM-Omni's contract). Shares the app and resources of {@link WorkerPipelineTest}; runs a
 * worker of its own for the speech tier, as the deployed speech service does.
 */
@QuarkusTest
class SpeechTierWorkerTest extends WorkerAppTest {
    static final Duration RESULT_TIMEOUT = Duration.ofSeconds(20);
    static final Tier SPEECH = Tier.of("speech");

    Worker worker;

    @BeforeEach
    void speechQueueWorker() {
        worker = queueWorker(appSettings(SPEECH).withMaxInFlight(4).withoutAdaptiveWindow(), localStore(),
                new CapturedEvents());
        worker.start();
    }

    @AfterEach
    void stopWorker() {
        worker.drain(Duration.ofSeconds(1));
    }

    @Test
    void speech_shouldWriteTheWavFirst_thenTheResultNamingIt() {
        // given
        String id = LocalPipeline.newRequestId();
        pipeline.send(aws.tiers().get(SPEECH).queue(), LocalPipeline.job(id, "Hello there", j -> j.put("task",
                "speech").put("voice", "ryan").put("language", "english").put("speed", 1.5)
                .put("instructions", "cheerful")));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.task()).isEqualTo(Task.SPEECH);
        assertThat(result.tier()).isEqualTo(SPEECH);
        assertThat(result.result().audioKey()).isEqualTo(JobLayout.audioKey(id));
        assertThat(result.result().format()).isEqualTo("wav");
        assertThat(result.result().sampleRate()).isEqualTo(24_000);
        assertThat(result.result().durationMs()).isEqualTo(11 * 60L);
        byte[] wav = pipeline.audio(id).orElseThrow();
        assertThat(Wav.parse(wav).orElseThrow().durationMs(wav.length)).isEqualTo(result.result().durationMs());
        assertThat(standIn.speechWith("Hello there")).isEqualTo(1);
        // and vLLM-Omni got the documented speech request
        var request = standIn.lastSpeechRequest("Hello there").orElseThrow();
        assertThat(request.path("voice").asText()).isEqualTo("ryan");
        assertThat(request.path("language").asText()).isEqualTo("English");
        assertThat(request.path("speed").asDouble()).isEqualTo(1.5);
        assertThat(request.path("instructions").asText()).isEqualTo("cheerful");
        assertThat(request.path("response_format").asText()).isEqualTo("wav");
    }

    @Test
    void textJobOnTheSpeechQueue_shouldFailNamingTaskAndTier_withoutCallingTheModel() {
        // given a job without a task (generate by default) sent straight to the speech tier's queue
        String id = LocalPipeline.newRequestId();
        String prompt = "Not for a TTS server " + id;
        pipeline.send(aws.tiers().get(SPEECH).queue(), LocalPipeline.job(id, prompt, j -> j.remove("task")));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(result.error().message()).contains("tier speech cannot serve generate jobs")
                .contains("tiers serving generate: small, large");
        assertThat(standIn.completionsWith(id)).isZero();
        assertThat(pipeline.awaitDeadLetters(id, RESULT_TIMEOUT)).hasSize(1);
    }
}
