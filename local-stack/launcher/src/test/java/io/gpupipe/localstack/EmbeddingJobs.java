package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.embedding.EmbeddingResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Embedding jobs and an embedding batch through the whole local pipeline: the router routes them to the embedding
 * tier, whose worker embeds with real llama.cpp from the TinyStories GGUF (64 values per vector), and a repeat is
 * answered from the result cache (on by default for that tier) with the same vectors. Run nested in
 * {@link LocalStackEndToEndTest}, on its stack (which gives the embedding tier a worker where the GGUF is), as
 * {@code LocalStackEndToEndTest$EmbeddingTest}; a stack of their own cost about 40 s of the launcher's tests. Skipped
 * without the GGUF.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EmbeddingJobs {
    private static final Path TEXT_MODEL = TestPaths.sharedModel();
    /** stories260K's embedding length ({@code llama.embedding_length}): the documented dimension locally. */
    private static final int DIMENSIONS = 64;
    private static final Duration JOB_LIMIT = Duration.ofSeconds(90);
    private static final Duration BATCH_LIMIT = Duration.ofMinutes(3);

    private ApiClient api;

    /** A started stack whose embedding tier has a worker: the stack of the class these checks are nested in. */
    abstract LocalStack stack();

    @BeforeAll
    void connect() {
        assumeTrue(Files.isRegularFile(TEXT_MODEL), "skipped: no text model at " + TEXT_MODEL
                + " (../shared/models/stories260K.gguf): the local embedding tier embeds with it");
        api = new ApiClient(stack().apiUri());
    }

    @Test
    void embeddingJob_shouldAnswerVectorsOfTheModelsLength_andTheSameVectorsFromTheCacheOnARepeat() {
        // given
        String body = "\"task\":\"embed\",\"input\":[\"Once upon a time\",\"there was a little cat\"]";
        String first = UUID.randomUUID().toString();
        String repeat = UUID.randomUUID().toString();

        // when
        ApiClient.Reply submitted = api.submit("{\"requestId\":\"" + first + "\"," + body + "}");
        JsonNode done = api.awaitTerminal(first, JOB_LIMIT);
        ApiClient.Reply again = api.submit("{\"requestId\":\"" + repeat + "\"," + body + "}");

        // then
        assertThat(submitted.status()).isEqualTo(202);
        assertThat(submitted.body().path("tier").asText()).isEqualTo("embed");
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("succeeded");
        JsonNode embeddings = done.at("/result/result/embeddings");
        assertThat(embeddings.path("object").asText()).isEqualTo("list");
        assertThat(embeddings.path("data")).hasSize(2);
        List<float[]> vectors = vectors(embeddings);
        assertThat(vectors).allSatisfy(v -> assertThat(v).hasSize(DIMENSIONS));
        assertThat(vectors.get(0)).isNotEqualTo(vectors.get(1));
        assertThat(embeddings.at("/usage/prompt_tokens").asInt()).isPositive();
        // the repeat: answered at once from the cache, the same vectors
        assertThat(again.status()).as(again.body().toString()).isEqualTo(200);
        assertThat(again.body().at("/result/cached").asBoolean()).isTrue();
        assertThat(vectors(again.body().at("/result/result/embeddings"))).usingRecursiveComparison()
                .isEqualTo(vectors);
    }

    @Test
    void embeddingJob_shouldShortenAndEncode_whenDimensionsAndBase64AreAsked() {
        String id = UUID.randomUUID().toString();

        api.submit("{\"requestId\":\"" + id + "\",\"task\":\"embed\",\"input\":\"Once upon a time\","
                + "\"dimensions\":16,\"encodingFormat\":\"base64\"}");
        JsonNode done = api.awaitTerminal(id, JOB_LIMIT);

        JsonNode embedding = done.at("/result/result/embeddings/data/0/embedding");
        assertThat(embedding.isTextual()).as(done.toString()).isTrue();
        assertThat(EmbeddingResponse.decode(embedding)).hasSize(16);
    }

    @Test
    void embeddingBatch_shouldWriteOpenAisEmbeddingLines_theSameVectorsOnARepeat() {
        assumeTrue(stack().events().batch().isPresent(), "skipped: functions/batch not built");
        // given
        String lines = String.join("\n",
                line("a", "\"Once upon a time\""),
                line("b", "[\"The cat sat\",\"on the mat\"]"),
                line("c", "\"Once upon a time\",\"dimensions\":8"),
                line("bad", "\"\"")) + "\n";

        // when
        JsonNode first = runBatch(lines);
        JsonNode second = runBatch(lines);

        // then
        assertThat(first.path("status").asText()).as(first.toString()).isEqualTo("completed");
        assertThat(first.at("/request_counts/completed").asInt()).isEqualTo(3);
        assertThat(first.at("/request_counts/failed").asInt()).isEqualTo(1);
        List<JsonNode> output = sorted(api.downloadLines(first.path("output_file_url").asText(null)));
        assertThat(output).extracting(l -> l.path("custom_id").asText()).containsExactly("a", "b", "c");
        assertThat(output).allSatisfy(l -> {
            assertThat(l.at("/response/status_code").asInt()).isEqualTo(200);
            assertThat(l.at("/response/body/object").asText()).isEqualTo("list");
        });
        assertThat(vectors(output.get(0).at("/response/body"))).singleElement()
                .satisfies(v -> assertThat(v).hasSize(DIMENSIONS));
        assertThat(vectors(output.get(1).at("/response/body"))).hasSize(2);
        assertThat(vectors(output.get(2).at("/response/body"))).singleElement()
                .satisfies(v -> assertThat(v).hasSize(8));
        assertThat(api.downloadLines(first.path("error_file_url").asText(null))).singleElement()
                .satisfies(l -> assertThat(l.at("/response/body/error/param").asText()).isEqualTo("input"));
        // the repeat gives the same vectors, line by line
        List<JsonNode> repeated = sorted(api.downloadLines(second.path("output_file_url").asText(null)));
        for (int i = 0; i < output.size(); i++) {
            assertThat(vectors(repeated.get(i).at("/response/body"))).usingRecursiveComparison()
                    .isEqualTo(vectors(output.get(i).at("/response/body")));
        }
    }

    private JsonNode runBatch(String lines) {
        String input = api.uploadBatchInput(lines.getBytes(StandardCharsets.UTF_8));
        ApiClient.Reply created = api.post("/v1/batches", "{\"input_file_id\":\"" + input + "\",\"endpoint\":"
                + "\"/v1/embeddings\",\"completion_window\":\"24h\"}");
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        return api.awaitBatch(created.body().path("id").asText(), BATCH_LIMIT);
    }

    private static String line(String customId, String input) {
        return "{\"custom_id\":\"" + customId + "\",\"method\":\"POST\",\"url\":\"/v1/embeddings\",\"body\":"
                + "{\"model\":\"embed\",\"input\":" + input + "}}";
    }

    private static List<JsonNode> sorted(List<JsonNode> lines) {
        return lines.stream().sorted(Comparator.comparing(l -> l.path("custom_id").asText())).toList();
    }

    private static List<float[]> vectors(JsonNode embeddings) {
        List<float[]> vectors = new ArrayList<>();
        embeddings.path("data").forEach(item -> vectors.add(EmbeddingResponse.decode(item.path("embedding"))));
        return vectors;
    }
}
