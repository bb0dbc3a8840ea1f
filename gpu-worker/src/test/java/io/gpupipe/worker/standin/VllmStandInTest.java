package io.gpupipe.worker.standin;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.worker.consumption.ServerLoad;
import io.gpupipe.model.serving.VllmServeCommand;
import io.gpupipe.worker.backend.Wav;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The stand-in must keep the vLLM contract the worker relies on, and its timing model must batch. */
class VllmStandInTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void start_shouldRefuseEveryConnectionWhileTheModelLoads_thenAnswerAllAtOnce_likeVllm() throws Exception {
        // given: vLLM binds its port before building the engine and serves HTTP only after it
        try (VllmStandIn server = VllmStandIn.start(VllmStandIn.Settings.defaults()
                .withLoadDelay(Duration.ofHours(1)))) {
            // then: /health and /v1/models are refused while loading, not answered 503
            for (String path : List.of("/health", "/v1/models")) {
                assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(server.url().resolve(path)).build(),
                        HttpResponse.BodyHandlers.discarding())).as(path).isInstanceOf(ConnectException.class);
            }
            assertThat(server.loading()).isTrue();

            // when the engine is up: everything answers, on the same port
            server.finishLoading();
            assertThat(http.send(HttpRequest.newBuilder(server.url().resolve("/health")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
            assertThat(http.send(HttpRequest.newBuilder(server.url().resolve("/v1/models")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).contains(server.settings().model());
            assertThat(server.loading()).isFalse();
        }
    }

    @Test
    void completions_shouldAnswerLikeVllm_withTextFinishReasonAndUsage() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            // when
            HttpResponse<String> response = post(standIn, "/v1/completions",
                    "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"Once upon a time\",\"max_tokens\":4}");
            // then
            assertThat(response.statusCode()).isEqualTo(200);
            JsonNode body = JobJson.read(response.body(), JsonNode.class);
            assertThat(body.path("object").asText()).isEqualTo("text_completion");
            assertThat(body.path("choices").get(0).path("text").asText().trim().split(" ")).hasSize(4);
            assertThat(body.path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
            assertThat(body.path("usage").path("prompt_tokens").asInt()).isEqualTo(5);
            assertThat(body.path("usage").path("completion_tokens").asInt()).isEqualTo(4);
            assertThat(body.path("usage").path("total_tokens").asInt()).isEqualTo(9);
        }
    }

    @Test
    void responseFormat_shouldGuideTheOutput_andBeRefusedWhenMalformed_likeVllm() throws Exception {
        String chat = "{\"model\":\"stand-in/tiny-llm\",\"messages\":[{\"role\":\"user\",\"content\":\"A cat\"}],"
                + "\"max_tokens\":%d,\"response_format\":%s}";
        String schema = "{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"cat\",\"schema\":{\"type\":"
                + "\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"lives\":{\"type\":\"integer\","
                + "\"minimum\":9}},\"required\":[\"name\",\"lives\"]}}}";
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            // when
            HttpResponse<String> whole = post(standIn, "/v1/chat/completions", String.format(chat, 64, schema));
            HttpResponse<String> cut = post(standIn, "/v1/chat/completions", String.format(chat, 2, schema));
            HttpResponse<String> unknownType = post(standIn, "/v1/chat/completions", String.format(chat, 8,
                    "{\"type\":\"yaml\"}"));
            HttpResponse<String> noName = post(standIn, "/v1/completions", "{\"model\":\"stand-in/tiny-llm\","
                    + "\"prompt\":\"x\",\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"schema\":{}}}}");
            // then: the whole document follows the schema; cut at max_tokens it is no JSON, finish_reason length
            JsonNode content = JobJson.read(JobJson.read(whole.body(), JsonNode.class).path("choices").get(0)
                    .path("message").path("content").asText(), JsonNode.class);
            assertThat(content.path("name").isTextual()).isTrue();
            assertThat(content.path("lives").asInt()).isEqualTo(9);
            JsonNode cutChoice = JobJson.read(cut.body(), JsonNode.class).path("choices").get(0);
            assertThat(cutChoice.path("message").path("content").asText()).hasSize(2
                    * StructuredOutputContract.CHARS_PER_TOKEN);
            assertThat(cutChoice.path("finish_reason").asText()).isEqualTo("length");
            assertThat(unknownType.statusCode()).isEqualTo(400);
            assertThat(unknownType.body()).contains("response_format");
            assertThat(noName.statusCode()).isEqualTo(400);
            assertThat(noName.body()).contains("name").contains("Field required");
        }
    }

    @Test
    void completions_shouldRejectUnknownModelAndWrongKey_likeVllm() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults().withApiKey("k"))) {
            HttpResponse<String> noKey = post(standIn, "/v1/completions", "{\"model\":\"stand-in/tiny-llm\"}");
            assertThat(noKey.statusCode()).isEqualTo(401);
            HttpResponse<String> wrongModel = http.send(HttpRequest.newBuilder(standIn.url().resolve(
                    "/v1/completions")).header("Authorization", "Bearer k").POST(HttpRequest.BodyPublishers.ofString(
                    "{\"model\":\"other\",\"prompt\":\"x\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(wrongModel.statusCode()).isEqualTo(404);
            assertThat(JobJson.read(wrongModel.body(), JsonNode.class).path("error").path("type").asText())
                    .isEqualTo("NotFoundError");
        }
    }

    @Test
    void completions_shouldRejectNonZeroPriority_likeVllm_whenNotServingWithThePriorityPolicy() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            // when
            HttpResponse<String> zero = post(standIn, "/v1/completions",
                    "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"x\",\"max_tokens\":2,\"priority\":0}");
            HttpResponse<String> three = post(standIn, "/v1/completions",
                    "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"x\",\"max_tokens\":2,\"priority\":3}");
            // then
            assertThat(zero.statusCode()).isEqualTo(200);
            assertBadRequest(three, "Got priority 3 but Priority scheduling is not enabled.");
        }
    }

    @Test
    void completions_shouldAcceptPriority_whenStartedWithTheDeployedVllmServeCommand() throws Exception {
        var deployed = new VllmServeCommand("mistral", 64, 4, 1, "127.0.0.1", 8000).args();
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.fromServerArgs(deployed))) {
            HttpResponse<String> response = post(standIn, "/v1/completions",
                    "{\"model\":\"mistral\",\"prompt\":\"x\",\"max_tokens\":2,\"priority\":-5}");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(standIn.settings().maxModelLen()).isEqualTo(64);
        }
    }

    @Test
    void speech_shouldBeServedOnlyByAnOmniServer_whenStartedWithADeploymentsArguments() throws Exception {
        List<String> omni = List.of("/models/fedcba98", "--deploy-config", "vllm_omni/deploy/qwen3_tts.yaml",
                "--omni", "--trust-remote-code", "--served-model-name", "qwen3-tts", "--port", "8000");
        List<String> text = new ArrayList<>(List.of("/models/01234567"));
        text.addAll(new VllmServeCommand("mistral", 64, 4, 1, "127.0.0.1", 8000).args());
        String speech = "{\"input\":\"Hello\",\"response_format\":\"wav\"}";
        try (VllmStandIn omniServer = VllmStandIn.start(VllmStandIn.Settings.fromServerArgs(omni));
             VllmStandIn textServer = VllmStandIn.start(VllmStandIn.Settings.fromServerArgs(text))) {
            // then each reports the path it serves as the model's root, as vLLM does
            JsonNode model = JobJson.read(http.send(HttpRequest.newBuilder(omniServer.url().resolve("/v1/models"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body(), JsonNode.class).path("data").get(0);
            assertThat(model.path("id").asText()).isEqualTo("qwen3-tts");
            assertThat(model.path("root").asText()).isEqualTo("/models/fedcba98");
            // and only vLLM-Omni has the speech API; vLLM answers an unknown route with FastAPI's 404
            assertThat(post(omniServer, "/v1/audio/speech", speech).statusCode()).isEqualTo(200);
            HttpResponse<String> none = post(textServer, "/v1/audio/speech", speech);
            assertThat(none.statusCode()).isEqualTo(404);
            assertThat(none.body()).isEqualTo("{\"detail\":\"Not Found\"}");
        }
    }

    @Test
    void completions_shouldRejectPromptPlusMaxTokensBeyondMaxModelLen_likeVllm() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults().withMaxModelLen(10))) {
            // given a prompt of 4 words = 5 tokens (the stand-in adds BOS)
            String prompt = "one two three four";
            // when
            HttpResponse<String> fits = post(standIn, "/v1/completions",
                    "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"" + prompt + "\",\"max_tokens\":5}");
            HttpResponse<String> tooLong = post(standIn, "/v1/completions",
                    "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"" + prompt + "\",\"max_tokens\":6}");
            HttpResponse<String> promptAlone = post(standIn, "/v1/completions", "{\"model\":\"stand-in/tiny-llm\","
                    + "\"prompt\":\"1 2 3 4 5 6 7 8 9\",\"max_tokens\":1}");
            // then
            assertThat(fits.statusCode()).isEqualTo(200);
            assertBadRequest(tooLong, "'max_tokens' or 'max_completion_tokens' is too large: 6. This model's maximum "
                    + "context length is 10 tokens and your request has 5 input tokens (6 > 10 - 5). "
                    + "(parameter=max_tokens, value=6)");
            assertBadRequest(promptAlone, "This model's maximum context length is 10 tokens. However, your request "
                    + "has 10 input tokens. Please reduce the length of the input messages.");
        }
    }

    @Test
    void speech_shouldAcceptTheDocumentedFields_andAnswer24kHzWav() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(standIn.url().resolve("/v1/audio/speech"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"input\":\"Hello\",\"voice\":\"Vivian\","
                            + "\"language\":\"english\",\"speed\":1.25,\"instructions\":\"calm\","
                            + "\"response_format\":\"wav\"}")).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(Wav.parse(response.body()).orElseThrow().sampleRate()).isEqualTo(24_000);
        }
    }

    @Test
    void speech_shouldRejectWhatVllmOmniRejects_withItsMessages() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            assertBadRequest(post(standIn, "/v1/audio/speech", "{\"input\":\"Hi\",\"voice\":\"alloy\"}"),
                    "Invalid voice 'alloy'. Supported: aiden, dylan, eric, ono_anna, ryan, serena, sohee, uncle_fu, "
                            + "vivian");
            assertBadRequest(post(standIn, "/v1/audio/speech", "{\"input\":\"Hi\",\"language\":\"klingon\"}"),
                    "Invalid language 'Klingon'. Supported: Auto, Chinese, English, French, German, Italian, "
                            + "Japanese, Korean, Portuguese, Russian, Spanish");
            assertThat(post(standIn, "/v1/audio/speech", "{\"input\":\"Hi\",\"speed\":4.5}").statusCode())
                    .isEqualTo(400);
            assertBadRequest(post(standIn, "/v1/audio/speech", "{\"input\":\" \"}"), "Input text cannot be empty");
            assertBadRequest(post(standIn, "/v1/audio/speech", "{\"input\":\"Hi\",\"instructions\":\""
                    + "a".repeat(501) + "\"}"), "Instructions too long (max 500 characters)");
        }
    }

    private static void assertBadRequest(HttpResponse<String> response, String message) {
        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = JobJson.read(response.body(), JsonNode.class).path("error");
        assertThat(error.path("message").asText()).isEqualTo(message);
        assertThat(error.path("type").asText()).isEqualTo("BadRequestError");
        assertThat(error.path("code").asInt()).isEqualTo(400);
    }

    @Test
    void engine_shouldBatchConcurrentSequences_soThroughputGrowsWithConcurrency() throws Exception {
        var settings = VllmStandIn.Settings.defaults().withMaxSequences(16).withStep(Duration.ofMillis(3), 0.01)
                .withIgnoreEos(true);
        try (VllmStandIn standIn = VllmStandIn.start(settings)) {
            timeConcurrent(standIn, 16, 5); // connections and threads warm
            // when one request alone, then 16 at once
            long single = timeConcurrent(standIn, 1, 100);
            long sixteen = timeConcurrent(standIn, 16, 100);
            // then 16 sequences of 100 tokens take about as long as one (300 ms per step x 1.15), not 16 times
            assertThat(single).isGreaterThanOrEqualTo(300);
            assertThat(sixteen).isLessThan(single * 2);
        }
    }

    @Test
    void metrics_shouldReportWaitingRequests_whenMoreThanTheBatchArrive() throws Exception {
        var settings = VllmStandIn.Settings.defaults().withMaxSequences(2).withStep(Duration.ofMillis(5), 0.01)
                .withIgnoreEos(true);
        try (VllmStandIn standIn = VllmStandIn.start(settings)) {
            // given 6 concurrent requests of 60 tokens (300 ms each) on 2 slots
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> uncheckedPost(standIn, 60), pool));
            }
            // when /metrics is read while the first two run (300 ms) then
            await("/metrics to show 2 running and 4 waiting").atMost(Duration.ofSeconds(2))
                    .pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                        String metrics = http.send(HttpRequest.newBuilder(standIn.url().resolve("/metrics")).build(),
                                HttpResponse.BodyHandlers.ofString()).body();
                        assertThat(ServerLoad.fromPrometheus(metrics)).contains(new ServerLoad(2, 4));
                    });
            calls.forEach(CompletableFuture::join);
            pool.shutdown();
            assertThat(standIn.maxWaitingSeen()).isEqualTo(4);
        }
    }

    @Test
    void faults_shouldFailMatchingCalls_thenRecover_andGoDownAndUp() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            standIn.failNext(2, "flaky");
            String body = "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"a flaky prompt\",\"max_tokens\":2}";
            assertThat(post(standIn, "/v1/completions", body).statusCode()).isEqualTo(500);
            assertThat(post(standIn, "/v1/completions", body).statusCode()).isEqualTo(500);
            assertThat(post(standIn, "/v1/completions", body).statusCode()).isEqualTo(200);
            assertThat(standIn.completionsWith("flaky")).isEqualTo(3);

            standIn.down();
            assertThatThrownBy(() -> post(standIn, "/health", null)).isInstanceOf(ConnectException.class);
            standIn.up();
            assertThat(post(standIn, "/health", null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void speech_shouldReturnAWavWhoseLengthFollowsTheText() throws Exception {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults())) {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(standIn.url().resolve(
                    "/v1/audio/speech")).POST(HttpRequest.BodyPublishers.ofString(
                    "{\"model\":\"stand-in/tiny-llm\",\"input\":\"Hello there\",\"voice\":\"vivian\","
                            + "\"response_format\":\"wav\"}")).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).contains("audio/wav");
            Wav.Info info = Wav.parse(response.body()).orElseThrow();
            assertThat(info.sampleRate()).isEqualTo(24_000);
            assertThat(info.durationMs(response.body().length)).isEqualTo(11 * SpeechTone.MS_PER_CHAR);
        }
    }

    private long timeConcurrent(VllmStandIn standIn, int concurrency, int tokens) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> uncheckedPost(standIn, tokens), pool));
        }
        calls.forEach(c -> assertThat(c.join().statusCode()).isEqualTo(200));
        pool.shutdown();
        return (System.nanoTime() - start) / 1_000_000;
    }

    private HttpResponse<String> uncheckedPost(VllmStandIn standIn, int tokens) {
        try {
            return post(standIn, "/v1/completions", "{\"model\":\"stand-in/tiny-llm\",\"prompt\":\"p\",\"max_tokens\":"
                    + tokens + "}");
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> post(VllmStandIn standIn, String path, String json)
            throws IOException, InterruptedException {
        URI uri = standIn.url().resolve(path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri);
        if (json == null) {
            request.GET();
        } else {
            request.POST(HttpRequest.BodyPublishers.ofString(json));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
