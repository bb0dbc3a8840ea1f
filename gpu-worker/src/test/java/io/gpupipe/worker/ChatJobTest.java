package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Chat jobs through the running worker's openai backend: sent to {@code /v1/chat/completions} of the vLLM stand-in
 * (which applies vLLM's chat checks). Shares the app and resources of {@link WorkerPipelineTest} (max-model-len
 * 1024 stand-in tokens).
 */
@QuarkusTest
class ChatJobTest extends WorkerAppTest {
    private static String chatJob(String id, String... roleThenContent) {
        return LocalPipeline.job(id, "unused", job -> {
            job.remove("prompt");
            ArrayNode messages = job.putArray("messages");
            for (int i = 0; i < roleThenContent.length; i += 2) {
                messages.addObject().put("role", roleThenContent[i]).put("content", roleThenContent[i + 1]);
            }
        });
    }

    @Test
    void process_shouldSendTheMessagesToChatCompletions_whenJobIsAChat() {
        // given
        String id = LocalPipeline.newRequestId();

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, chatJob(id, "system", "Answer in one word.", "user", "Hi " + id,
                "assistant", "Hello.", "user", "And ECS?"));
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then: one chat call with the messages in order, no plain completion
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        JsonNode request = standIn.lastChatRequest(id).orElseThrow();
        assertThat(request.path("model").asText()).isEqualTo(standIn.settings().model());
        assertThat(request.path("max_tokens").asInt()).isEqualTo(16);
        assertThat(request.path("messages")).isEqualTo(JobJson.mapper().valueToTree(List.of(
                Map.of("role", "system", "content", "Answer in one word."),
                Map.of("role", "user", "content", "Hi " + id), Map.of("role", "assistant", "content", "Hello."),
                Map.of("role", "user", "content", "And ECS?"))));
        assertThat(standIn.lastCompletionRequest(id)).isEmpty();
        assertThat(result.result().text()).isNotBlank();
        assertThat(result.result().usage().completionTokens()).isPositive();
    }

    @Test
    void process_shouldFailPromptTooLong_whenTheRenderedMessagesExceedTheContext() {
        // given: two messages of 600 words each: 1,200 stand-in tokens > max-model-len 1024
        String id = LocalPipeline.newRequestId();
        String words = "word ".repeat(600);

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, chatJob(id, "user", id + " " + words, "user", words));
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.PROMPT_TOO_LONG);
        assertThat(result.attempts()).isEqualTo(1);
    }

    @Test
    void process_shouldFailOnce_whenTheServedModelHasNoChatTemplate() {
        // given
        String id = LocalPipeline.newRequestId();
        standIn.chatTemplate(false);
        try {
            // when
            pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, chatJob(id, "user", "template " + id));
            JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

            // then: vLLM's 400 is permanent for this job, with vLLM's reason in the result
            assertThat(result.status()).isEqualTo(JobStatus.FAILED);
            assertThat(result.error().code()).isEqualTo(ErrorCodes.MODEL_ERROR);
            assertThat(result.error().message()).contains("default chat template is no longer allowed");
            assertThat(result.attempts()).isEqualTo(1);
        } finally {
            standIn.chatTemplate(true);
        }
    }
}
