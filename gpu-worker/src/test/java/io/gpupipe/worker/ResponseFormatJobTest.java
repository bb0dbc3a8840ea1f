package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.format.ResponseFormat;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.RecordingJobEvents;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Jobs with a {@code responseFormat} through the running worker's openai backend: the format reaches the vLLM
 * stand-in as vLLM's {@code response_format}, the stand-in decodes under it (cut at max_tokens like vLLM), and the
 * worker checks the output. Shares the app and resources of {@link WorkerPipelineTest}.
 */
@QuarkusTest
class ResponseFormatJobTest extends WorkerAppTest {
    private static final String PERSON = """
            {"type":"json_schema","json_schema":{"name":"person","strict":true,"schema":{"type":"object",
             "properties":{"name":{"type":"string","minLength":3},"age":{"type":"integer","minimum":1}},
             "required":["name","age"],"additionalProperties":false}}}""";

    @Inject
    RecordingJobEvents events;

    @Test
    void process_shouldSendTheSchemaAsResponseFormat_andSucceed_whenTheOutputMatches() {
        // given
        String id = LocalPipeline.newRequestId();

        // when: a chat job with room for the whole document
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "unused", job -> {
            job.remove("prompt");
            job.putArray("messages").addObject().put("role", "user").put("content", "A person " + id);
            job.put("maxTokens", 64).set("responseFormat", JobJson.read(PERSON, JsonNode.class));
        }));
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then: vLLM got OpenAI's response_format as the client wrote it, and the output parses and validates
        JsonNode sent = standIn.lastChatRequest(id).orElseThrow().path("response_format");
        assertThat(sent).isEqualTo(JobJson.read(PERSON, JsonNode.class));
        assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(JobStatus.SUCCEEDED);
        JsonNode output = JobJson.read(result.result().text(), JsonNode.class);
        assertThat(output.path("name").asText()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(output.path("age").asInt()).isPositive();
        ResponseFormat format = JobJson.read(PERSON, ResponseFormat.class);
        assertThat(format.violation(result.result().text())).isEmpty();
    }

    @Test
    void process_shouldSendJsonObjectToCompletions_whenAPromptJobAsksForIt() {
        // given
        String id = LocalPipeline.newRequestId();

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "A cat as JSON " + id, job -> job
                .put("maxTokens", 64).set("responseFormat", JobJson.read("{\"type\":\"json_object\"}",
                        JsonNode.class))));
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then
        assertThat(standIn.lastCompletionRequest(id).orElseThrow().path("response_format"))
                .isEqualTo(JobJson.read("{\"type\":\"json_object\"}", JsonNode.class));
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(JobJson.read(result.result().text(), JsonNode.class).isObject()).isTrue();
    }

    @Test
    void process_shouldFailWithItsCodeAndKeepTheRawText_whenMaxTokensCutsTheDocument() {
        // given: 3 tokens cannot hold the person document
        String id = LocalPipeline.newRequestId();

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "A person " + id, job -> job
                .put("maxTokens", 3).set("responseFormat", JobJson.read(PERSON, JsonNode.class))));
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then: failed once, not retried, the cut text kept as the model gave it
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.RESPONSE_FORMAT_VIOLATION);
        assertThat(result.error().message()).contains("not valid JSON").contains("maxTokens 3");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.result().text()).startsWith("{\"").hasSizeBetween(1, 12);
        assertThat(result.result().finishReason()).isEqualTo("length");
        assertThat(result.result().usage().completionTokens()).isEqualTo(3);
        JobEvent event = await("the job's event").atMost(Duration.ofSeconds(10))
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        assertThat(event.outcome()).isEqualTo(JobOutcome.FAILED);
        assertThat(event.errorCode()).isEqualTo(ErrorCodes.RESPONSE_FORMAT_VIOLATION);
    }

    @Test
    void process_shouldSendNoResponseFormat_whenTheJobAsksForText() {
        // given
        String id = LocalPipeline.newRequestId();

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "Plain " + id, job -> job
                .set("responseFormat", JobJson.read("{\"type\":\"text\"}", JsonNode.class))));
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(standIn.lastCompletionRequest(id).orElseThrow().has("response_format")).isFalse();
    }
}
