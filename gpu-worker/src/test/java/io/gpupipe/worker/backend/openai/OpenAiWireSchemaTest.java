package io.gpupipe.worker.backend.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.ModelServerContract;
import io.gpupipe.model.contract.Deviation;
import io.gpupipe.model.contract.OpenAiSpec;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.serving.VllmServeCommand;
import io.gpupipe.worker.backend.ModelException;
import io.gpupipe.worker.standin.VllmStandIn;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * OpenAI's published API description judges the real bytes on the wire between the worker's openai backend and the
 * vLLM / vLLM-Omni stand-in: every request the backend sends (completions, chat completions, speech, embeddings) and every
 * answer the stand-in gives (successes and each error it can give). Where vLLM or vLLM-Omni differ from OpenAI the
 * difference is named below with its source; anything else that disagrees is a defect of the worker or the stand-in.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenAiWireSchemaTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** vLLM's request classes take {@code priority} (chat_completion/protocol.py, completion/protocol.py). */
    private static final Deviation PRIORITY = Deviation.extension("priority", "vLLM ChatCompletionRequest/"
            + "CompletionRequest.priority: int = 0, refused unless --scheduling-policy priority");
    /** vLLM-Omni's speech request adds {@code language} (vllm_omni protocol/audio.py, docs serving/speech_api.md). */
    /**
     * vLLM's completions take OpenAI's chat {@code response_format} (completion/protocol.py, {@code response_format:
     * AnyResponseFormat | None}); OpenAI's legacy completions have none. On chat requests it is judged, not named.
     */
    private static final Deviation COMPLETION_RESPONSE_FORMAT = Deviation.extension("response_format", "vLLM "
            + "CompletionRequest.response_format: json_object, json_schema or text, as structured outputs");
    private static final Deviation LANGUAGE = Deviation.extension("language", "vLLM-Omni "
            + "OpenAICreateSpeechRequest.language (Qwen3-TTS: Auto, English, Chinese, ...)");
    /** vLLM keeps {@code stop_reason} on each choice "for legacy reasons" (chat_completion/protocol.py). */
    private static final Deviation STOP_REASON = Deviation.extension("choices[].stop_reason", "vLLM "
            + "ChatCompletionResponseChoice.stop_reason: not part of the OpenAI spec, kept for legacy reasons");
    /** vLLM's ChatMessage serializes every unset optional field as null (chat_completion/protocol.py). */
    private static final String VLLM_CHAT_MESSAGE = "vLLM ChatMessage{role, content, refusal, annotations, audio, "
            + "function_call, tool_calls (dropped when empty), reasoning}: unset fields answered as null";
    private static final Deviation[] CHAT_MESSAGE_NULLS = {
        Deviation.nullForAbsent("choices[].message.annotations", VLLM_CHAT_MESSAGE),
        Deviation.nullForAbsent("choices[].message.function_call", VLLM_CHAT_MESSAGE),
        Deviation.extension("choices[].message.reasoning", VLLM_CHAT_MESSAGE + "; reasoning is vLLM's own field")
    };
    /** vLLM's UsageInfo.prompt_tokens_details: PromptTokenUsageInfo | None = None, answered as null. */
    private static final Deviation USAGE_DETAILS = Deviation.nullForAbsent("usage.prompt_tokens_details", "vLLM "
            + "UsageInfo.prompt_tokens_details (engine/protocol.py): null where OpenAI has an object or nothing");
    /** vLLM's EmbeddingResponse adds an id, a creation time and UsageInfo's completion_tokens (always 0). */
    private static final String VLLM_EMBEDDING = "vLLM EmbeddingResponse{id, object, created, model, data, usage: "
            + "UsageInfo} (entrypoints/openai/protocol.py)";
    private static final Deviation[] EMBEDDING_RESPONSE = {
        Deviation.extension("id", VLLM_EMBEDDING), Deviation.extension("created", VLLM_EMBEDDING),
        Deviation.extension("usage.completion_tokens", VLLM_EMBEDDING)
    };
    /** vLLM's ErrorInfo.code is the HTTP status as an int (vllm/entrypoints/openai/engine/protocol.py). */
    private static final Deviation ERROR_CODE = Deviation.integerForNullableString("error.code", "vLLM ErrorInfo"
            + "{message, type, param, code: int}: code is the HTTP status");

    private final List<VllmStandIn> standIns = new ArrayList<>();
    private VllmStandIn text;
    private VllmStandIn keyed;
    private VllmStandIn omni;
    private VllmStandIn pooling;

    @BeforeAll
    void talkToEveryStandInAnswer() {
        text = start(VllmStandIn.Settings.defaults().withMaxModelLen(64).withContract(ModelServerContract.TEXT));
        keyed = start(VllmStandIn.Settings.defaults().withApiKey("right-key"));
        omni = start(VllmStandIn.Settings.fromServerArgs(List.of("/models/tts", "--omni", "--served-model-name",
                "tts")));
        OpenAiBackend backend = backend(text, "stand-in/tiny-llm", Optional.empty());
        // successes: a completion and a chat, with the fields the worker may send (priority 0 is always accepted)
        backend.generate(job("{\"prompt\":\"Once upon a time\",\"maxTokens\":8,\"priority\":0,\"seed\":7}"), TIMEOUT);
        backend.generate(job("{\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\","
                + "\"content\":\"Hi\"}],\"maxTokens\":8,\"temperature\":0.2,\"topP\":0.9}"), TIMEOUT);
        // structured outputs: a chat with a strict schema, a completion asking for a JSON object
        backend.generate(job("{\"messages\":[{\"role\":\"user\",\"content\":\"A cat?\"}],\"maxTokens\":30,"
                + "\"responseFormat\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"cat\",\"description\":"
                + "\"A cat\",\"strict\":true,\"schema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":"
                + "\"string\"}},\"required\":[\"name\"],\"additionalProperties\":false}}}}"), TIMEOUT);
        backend.generate(job("{\"prompt\":\"A cat as JSON:\",\"maxTokens\":30,\"responseFormat\":{\"type\":"
                + "\"json_object\"}}"), TIMEOUT);
        // every error the text server gives: context too long, priority refused, injected 500, no chat template,
        // unknown model, wrong API key
        fails(() -> backend.generate(job("{\"prompt\":\"" + "word ".repeat(80) + "\"}"), TIMEOUT));
        fails(() -> backend.generate(job("{\"prompt\":\"urgent\",\"maxTokens\":8,\"priority\":3}"), TIMEOUT));
        text.failNext(1, "fail-once");
        fails(() -> backend.generate(job("{\"prompt\":\"fail-once\",\"maxTokens\":8}"), TIMEOUT));
        text.chatTemplate(false);
        fails(() -> backend.generate(job("{\"messages\":[{\"role\":\"user\",\"content\":\"template?\"}]}"),
                TIMEOUT));
        text.chatTemplate(true);
        fails(() -> backend(text, "no-such-model", Optional.empty()).generate(job("{\"prompt\":\"x\"}"), TIMEOUT));
        fails(() -> backend(keyed, "stand-in/tiny-llm", Optional.of("wrong-key")).generate(job("{\"prompt\":\"x\"}"),
                TIMEOUT));
        // speech: with every field, without a voice, an unknown voice, and asked of a text-only server
        OpenAiBackend speech = backend(omni, "tts", Optional.empty());
        speech.speak(job("{\"task\":\"speech\",\"prompt\":\"Hello there.\",\"voice\":\"ryan\",\"language\":"
                + "\"English\",\"speed\":1.1,\"instructions\":\"calm\"}"), TIMEOUT);
        speech.speak(job("{\"task\":\"speech\",\"prompt\":\"No voice named.\"}"), TIMEOUT);
        fails(() -> speech.speak(job("{\"task\":\"speech\",\"prompt\":\"x\",\"voice\":\"nobody\"}"), TIMEOUT));
        fails(() -> backend(text, "tts", Optional.empty()).speak(job("{\"task\":\"speech\",\"prompt\":\"x\","
                + "\"voice\":\"ryan\"}"), TIMEOUT));
        // embeddings, on a server started with the embedding tier's flags (--runner pooling, 512 tokens): two
        // inputs, an input over the model's context, an injected 500, an unknown model, and asked of a text server
        pooling = start(VllmStandIn.Settings.fromServerArgs(Stream.concat(Stream.of("/models/bge"),
                new VllmServeCommand("bge", 512, 64, 1, "127.0.0.1", 8000).poolingArgs().stream()).toList()));
        OpenAiBackend embeddings = backend(pooling, "bge", Optional.empty());
        embeddings.embed(job("{\"task\":\"embed\",\"input\":[\"Once upon a time\",\"a red ball\"]}"), TIMEOUT);
        fails(() -> embeddings.embed(job("{\"task\":\"embed\",\"input\":\"" + "word ".repeat(600) + "\"}"),
                TIMEOUT));
        pooling.failNext(1, "fail-once");
        fails(() -> embeddings.embed(job("{\"task\":\"embed\",\"input\":\"fail-once\"}"), TIMEOUT));
        fails(() -> backend(pooling, "no-such-model", Optional.empty()).embed(job("{\"task\":\"embed\","
                + "\"input\":\"x\"}"), TIMEOUT));
        fails(() -> backend(text, "stand-in/tiny-llm", Optional.empty()).embed(job("{\"task\":\"embed\","
                + "\"input\":\"x\"}"), TIMEOUT));
        fails(() -> embeddings.generate(job("{\"prompt\":\"no completions on a pooling server\"}"), TIMEOUT));
    }

    @AfterAll
    void stopStandIns() {
        standIns.forEach(VllmStandIn::close);
    }

    @Test
    void everyAnswer_shouldHaveBeenGiven_soTheJudgementBelowCoversIt() {
        assertThat(answers("/v1/completions")).containsExactlyInAnyOrder(200, 400, 401, 404, 500);
        assertThat(answers("/v1/chat/completions")).containsExactlyInAnyOrder(200, 400);
        assertThat(answers("/v1/audio/speech")).containsExactlyInAnyOrder(200, 400, 404);
        assertThat(answers("/v1/embeddings")).containsExactlyInAnyOrder(200, 400, 404, 500);
    }

    @Test
    void requestsWithAResponseFormat_shouldHaveBeenSent_soTheJudgementBelowCoversThem() {
        assertThat(posts()).filteredOn(exchange -> exchange.requestText().contains("\"response_format\":{"))
                .extracting(VllmStandIn.Exchange::path)
                .containsExactlyInAnyOrder("/v1/chat/completions", "/v1/completions");
    }

    @Test
    void requests_shouldConformToOpenAisRequestSchemas_exceptVllmsNamedExtensions() {
        OpenAiSpec spec = OpenAiSpec.get();
        for (VllmStandIn.Exchange exchange : posts()) {
            String schema = spec.requestSchema(operation(exchange));
            Deviation[] named = exchange.path().equals("/v1/completions")
                    ? new Deviation[] {PRIORITY, LANGUAGE, COMPLETION_RESPONSE_FORMAT}
                    : new Deviation[] {PRIORITY, LANGUAGE};
            List<String> problems = spec.problems(schema, exchange.requestText(), named);
            if (exchange.requestText().contains("No voice named.")) {
                // vLLM-Omni makes voice optional (the checkpoint's default speaker, vivian for Qwen3-TTS CustomVoice;
                // docs serving/speech_api.md); OpenAI requires it. The worker omits it when neither job nor
                // configuration names one.
                assertThat(problems).as(exchange.requestText()).singleElement().asString()
                        .contains("required property 'voice' not found");
            } else {
                assertThat(problems).as("%s %s against OpenAI's %s", exchange.path(), exchange.requestText(), schema)
                        .isEmpty();
            }
        }
    }

    @Test
    void jsonAnswers_shouldConformToOpenAisResponseAndErrorSchemas_exceptVllmsNamedDifferences() {
        OpenAiSpec spec = OpenAiSpec.get();
        for (VllmStandIn.Exchange exchange : posts()) {
            if (exchange.status() == 200 && exchange.contentType().equals("application/json")) {
                List<Deviation> differences = new ArrayList<>(List.of(CHAT_MESSAGE_NULLS));
                differences.add(STOP_REASON);
                differences.add(USAGE_DETAILS);
                if (exchange.path().equals("/v1/embeddings")) {
                    differences.addAll(List.of(EMBEDDING_RESPONSE));
                }
                spec.assertConforms(spec.responseSchema(operation(exchange), 200), exchange.responseText(),
                        differences.toArray(Deviation[]::new));
            } else if (exchange.responseText().startsWith("{\"detail\"")) {
                // a route the server lacks: FastAPI's own 404 body, as vLLM answers it (vllm-project/vllm#5082), no
                // OpenAI error object; the worker reads the status only
                assertThat(exchange.status()).isEqualTo(404);
                assertThat(spec.problems("ErrorResponse", exchange.responseText())).isNotEmpty();
            } else if (exchange.status() >= 400) {
                spec.assertConforms("ErrorResponse", exchange.responseText(), ERROR_CODE);
            }
        }
    }

    @Test
    void speechAnswers_shouldBeAudioTheWorkerAccepts_inOpenAisMediaTypeToo() {
        OpenAiSpec spec = OpenAiSpec.get();
        List<VllmStandIn.Exchange> audio = posts().stream().filter(e -> e.path().equals("/v1/audio/speech")
                && e.status() == 200).toList();
        assertThat(audio).hasSize(2).allSatisfy(exchange -> {
            // vLLM-Omni answers audio/<format> (audio/wav for wav); OpenAI's description says
            // application/octet-stream: the worker must accept both
            assertThat(exchange.contentType()).isEqualTo("audio/wav");
            assertThat(exchange.accept()).contains("audio/wav");
            spec.responseMediaTypes("/audio/speech", 200).stream().filter(type -> !type.equals("text/event-stream"))
                    .forEach(type -> assertThat(exchange.accept()).contains(type));
            assertThat(new String(exchange.response(), 0, 4, java.nio.charset.StandardCharsets.US_ASCII))
                    .isEqualTo("RIFF");
        });
    }

    private VllmStandIn start(VllmStandIn.Settings settings) {
        VllmStandIn standIn = VllmStandIn.start(settings);
        standIns.add(standIn);
        return standIn;
    }

    private List<VllmStandIn.Exchange> posts() {
        return standIns.stream().flatMap(s -> s.exchanges().stream()).filter(e -> e.method().equals("POST"))
                .toList();
    }

    private Set<Integer> answers(String path) {
        return posts().stream().filter(e -> e.path().equals(path)).map(VllmStandIn.Exchange::status)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** OpenAI's operation path: the description's server URL ends in /v1. */
    private static String operation(VllmStandIn.Exchange exchange) {
        return exchange.path().substring("/v1".length());
    }

    private static OpenAiBackend backend(VllmStandIn standIn, String model, Optional<String> apiKey) {
        VllmClient client = QuarkusRestClientBuilder.newBuilder().baseUri(standIn.url()).build(VllmClient.class);
        return new OpenAiBackend(client, new OpenAiBackend.Settings(Optional.of(model), Optional.empty(),
                Optional.of(model), Optional.empty(), apiKey, true, Optional.empty()));
    }

    private static InferenceJob job(String fields) {
        String json = "{\"requestId\":\"" + UUID.randomUUID() + "\"," + fields.substring(1);
        return ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(json, JobRequestParser.Source.API))
                .job();
    }

    private static void fails(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(ModelException.class);
    }
}
