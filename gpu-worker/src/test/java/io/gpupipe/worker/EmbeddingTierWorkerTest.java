package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.embedding.EmbeddingFields;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.embedding.VectorLength;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.standin.EmbeddingContract;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Embedding jobs on the embedding tier's own queue, through the app's openai backend against the vLLM stand-in's
 * {@code /v1/embeddings} (vLLM's pooling runner). The stand-in's vectors are a function of the text alone
 * ({@code EmbeddingContract.vector}), so each result is checked value by value.
 */
@QuarkusTest
class EmbeddingTierWorkerTest extends WorkerAppTest {
    static final Duration RESULT_TIMEOUT = Duration.ofSeconds(20);
    static final Tier EMBED = Tier.of("embed");
    static final int NATIVE = EmbeddingContract.DIMENSIONS;

    Worker worker;

    @BeforeEach
    void embeddingQueueWorker() {
        worker = queueWorker(appSettings(EMBED).withMaxInFlight(4).withoutAdaptiveWindow(), localStore(),
                new CapturedEvents());
        worker.start();
    }

    @AfterEach
    void stopWorker() {
        worker.drain(Duration.ofSeconds(1));
    }

    @Test
    void embed_shouldAnswerOneFloatVectorPerInput_inOpenAisShape_andInInputOrder() {
        // given
        String id = LocalPipeline.newRequestId();
        List<String> inputs = List.of("The little robot " + id, "found a red ball");
        send(id, j -> j.set("input", JobJson.mapper().valueToTree(inputs)));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.task()).isEqualTo(Task.EMBED);
        assertThat(result.tier()).isEqualTo(EMBED);
        EmbeddingResponse embeddings = result.result().embeddings();
        assertThat(embeddings.object()).isEqualTo("list");
        assertThat(embeddings.model()).isEqualTo(result.model());
        assertThat(embeddings.data()).hasSize(2);
        for (int i = 0; i < inputs.size(); i++) {
            EmbeddingResponse.Item item = embeddings.data().get(i);
            assertThat(item.index()).isEqualTo(i);
            assertThat(item.embedding().isArray()).isTrue();
            assertThat(EmbeddingResponse.decode(item.embedding())).containsExactly(standInVector(inputs.get(i)));
        }
        // the stand-in's tokens: a word each plus one, per input
        assertThat(embeddings.usage().promptTokens()).isEqualTo(5 + 5);
        assertThat(result.result().usage()).isEqualTo(JobResult.Usage.of(10, 0));
        // and vLLM got OpenAI's request: every input at once, float vectors, no dimensions
        JsonNode request = standIn.embeddingRequests().stream()
                .filter(r -> r.path("input").toString().contains(id)).findFirst().orElseThrow();
        assertThat(request.path("input").toString()).isEqualTo(JobJson.mapper().valueToTree(inputs).toString());
        assertThat(request.path("encoding_format").asText()).isEqualTo("float");
        assertThat(request.has("dimensions")).isFalse();
        // and two vectors are far under the inline limit: no object of their own
        assertThat(result.result().embeddingsKey()).isNull();
        assertThat(pipeline.embeddings(id)).isEmpty();
    }

    @Test
    void embed_shouldWriteTheVectorsToTheirOwnObject_andNameIt_whenTheyExceedTheInlineLimit() {
        // given: the most inputs a job may hold, at the model's native length (about 1.2 MB of JSON)
        String id = LocalPipeline.newRequestId();
        List<String> inputs = java.util.stream.IntStream.range(0, EmbeddingFields.MAX_INPUTS)
                .mapToObj(i -> "line " + i + " of " + id).toList();
        send(id, j -> j.set("input", JobJson.mapper().valueToTree(inputs)));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then: the result names the object and carries no vectors, only the usage
        assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.result().embeddings()).isNull();
        assertThat(result.result().embeddingsKey()).isEqualTo(JobLayout.embeddingsKey(id));
        assertThat(result.result().usage().promptTokens()).isPositive();
        assertThat(JobJson.write(result).length()).isLessThan(EmbeddingOutputs.INLINE_LIMIT_BYTES);
        // and the object holds OpenAI's whole response, every vector in input order
        String stored = pipeline.embeddings(id).orElseThrow();
        assertThat(stored.length()).isGreaterThan(EmbeddingOutputs.INLINE_LIMIT_BYTES);
        EmbeddingResponse embeddings = JobJson.read(stored, EmbeddingResponse.class);
        assertThat(embeddings.object()).isEqualTo("list");
        assertThat(embeddings.data()).hasSize(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            assertThat(embeddings.data().get(i).index()).isEqualTo(i);
            assertThat(EmbeddingResponse.decode(embeddings.data().get(i).embedding()))
                    .containsExactly(standInVector(inputs.get(i)));
        }
        assertThat(embeddings.usage().promptTokens()).isEqualTo(result.result().usage().promptTokens());
    }

    @Test
    void embed_shouldShortenToDimensions_andWriteBase64_whenAsked() {
        // given
        String id = LocalPipeline.newRequestId();
        String text = "Once upon a time " + id;
        send(id, j -> j.put("input", text).put("dimensions", 32).put("encodingFormat", "base64"));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        JsonNode embedding = result.result().embeddings().data().get(0).embedding();
        assertThat(embedding.isTextual()).isTrue();
        float[] vector = EmbeddingResponse.decode(embedding);
        assertThat(vector).hasSize(32).containsExactly(VectorLength.reduce(standInVector(text), 32));
        double norm = 0;
        for (float v : vector) {
            norm += (double) v * v;
        }
        assertThat(Math.sqrt(norm)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    }

    @Test
    void embed_shouldFailNamingDimensions_whenTheModelsVectorsAreShorter() {
        // given
        String id = LocalPipeline.newRequestId();
        send(id, j -> j.put("input", "too many values " + id).put("dimensions", NATIVE + 1));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(result.error().fieldErrors()).extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("dimensions", ErrorCodes.OUT_OF_RANGE));
        assertThat(result.error().message()).contains("at most " + NATIVE);
    }

    @Test
    void embedJobOnATextQueue_shouldFailNamingTaskAndTier_withoutCallingTheModel() {
        // given an embedding job sent straight to the small tier's queue (the app's own worker consumes it)
        String id = LocalPipeline.newRequestId();
        pipeline.send(aws.tiers().get(Tier.of("small")).queue(), embedJob(id, j -> j.put("input", "lost " + id)));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(result.error().message()).contains("tier small cannot serve embed jobs")
                .contains("tiers serving embed: embed");
        assertThat(standIn.embeddingRequests()).noneMatch(r -> r.toString().contains(id));
        assertThat(pipeline.awaitDeadLetters(id, RESULT_TIMEOUT)).hasSize(1);
    }

    private void send(String id, java.util.function.Consumer<ObjectNode> fields) {
        pipeline.send(aws.tiers().get(EMBED).queue(), embedJob(id, fields));
    }

    private static String embedJob(String id, java.util.function.Consumer<ObjectNode> fields) {
        ObjectNode job = JobJson.mapper().createObjectNode().put("requestId", id).put("task", "embed");
        fields.accept(job);
        return job.toString();
    }

    /** The stand-in's vector of {@code text} (a unit vector drawn from the text, as its EmbeddingContract says). */
    private static float[] standInVector(String text) {
        return EmbeddingContract.vector(text);
    }
}
