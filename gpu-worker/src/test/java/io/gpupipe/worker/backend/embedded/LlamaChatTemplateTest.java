package io.gpupipe.worker.backend.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpupipe.model.ChatMessage;
import io.gpupipe.model.ChatRole;
import io.gpupipe.model.Task;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.worker.backend.Generation;
import io.gpupipe.worker.support.TestModels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Chat jobs on llama.cpp: the messages go through the GGUF's chat template. The test model (stories260K) is a base
 * model whose GGUF has no {@code tokenizer.chat_template}, so llama.cpp applies its fallback, ChatML; the test
 * checks that rendering and that the chat job generates exactly what a prompt job with that rendering generates.
 */
class LlamaChatTemplateTest {
    private static final Optional<Path> GGUF = TestModels.storiesGguf();
    private static final List<ChatMessage> MESSAGES = List.of(new ChatMessage(ChatRole.SYSTEM, "You tell stories."),
            new ChatMessage(ChatRole.USER, "Tell me about Lily."), new ChatMessage(ChatRole.ASSISTANT, "Lily was"),
            new ChatMessage(ChatRole.SYSTEM, "Keep it short."), new ChatMessage(ChatRole.USER, "More"));
    private static final String CHATML = """
            <|im_start|>system
            You tell stories.<|im_end|>
            <|im_start|>user
            Tell me about Lily.<|im_end|>
            <|im_start|>assistant
            Lily was<|im_end|>
            <|im_start|>system
            Keep it short.<|im_end|>
            <|im_start|>user
            More<|im_end|>
            <|im_start|>assistant
            """;
    private static LlamaText llama;

    @BeforeAll
    static void load() {
        if (GGUF.isPresent()) {
            llama = LlamaText.load(GGUF.get(), 512, 2);
        }
    }

    @AfterAll
    static void close() {
        if (llama != null) {
            llama.close();
        }
    }

    @Test
    void chatPrompt_shouldRenderEveryMessageInOrder_withTheGenerationPrompt() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        assertThat(llama.chatPrompt(MESSAGES)).isEqualTo(CHATML);
    }

    @Test
    void generate_shouldGenerateFromTheTemplatedPrompt_whenJobIsAChat() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        String id = UUID.randomUUID().toString();
        InferenceJob chat = new InferenceJob(id, Task.GENERATE, null, 24, 0.0, 1.0, null, null, null, null, null,
                null, null, null, null, MESSAGES);
        InferenceJob sameAsPrompt = new InferenceJob(id, Task.GENERATE, CHATML, 24, 0.0, 1.0, null, null, null, null,
                null, null);

        Generation fromChat = llama.generate(chat, Duration.ofSeconds(60));
        Generation fromPrompt = llama.generate(sameAsPrompt, Duration.ofSeconds(60));

        assertThat(fromChat.completionTokens()).isPositive();
        assertThat(fromChat).isEqualTo(fromPrompt);
    }
}
