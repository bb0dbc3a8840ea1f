package io.gpupipe.model.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.cache.CachePolicy;
import io.gpupipe.model.contract.OpenAiSpec;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.OwnerIds;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An embedding job's output: OpenAI's response shape (judged by its published CreateEmbeddingResponse), the base64
 * encoding (little-endian float32, checked byte by byte), the shortening rule, and its cache key.
 */
class EmbeddingResponseTest {
    private static final float[] VECTOR = {0.5f, -0.25f, 1.0f, 3.0f};

    @Test
    void floatResponse_shouldConformToOpenAisSchema_withOneEntryPerInputInOrder() {
        EmbeddingResponse response = EmbeddingResponse.of(List.of(VECTOR, new float[] {1, 2, 3, 4}),
                EncodingFormat.FLOAT, "bge-small-en-v1.5", 7);
        String json = JobJson.write(response);

        OpenAiSpec spec = OpenAiSpec.get();
        spec.assertConforms(spec.responseSchema("/embeddings", 200), json);
        JsonNode read = JobJson.read(json, JsonNode.class);
        assertThat(read.path("object").asText()).isEqualTo("list");
        assertThat(read.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(read.at("/data/0/embedding").toString()).isEqualTo("[0.5,-0.25,1.0,3.0]");
        assertThat(read.at("/usage/prompt_tokens").asInt()).isEqualTo(7);
        assertThat(read.at("/usage/total_tokens").asInt()).isEqualTo(7);
        assertThat(response.dimensions()).isEqualTo(4);
    }

    @Test
    void base64_shouldBeTheLittleEndianFloat32Bytes_andDecodeBack() {
        JsonNode encoded = EmbeddingResponse.encode(VECTOR, EncodingFormat.BASE64);

        byte[] bytes = Base64.getDecoder().decode(encoded.textValue());
        // 0.5f = 0x3F000000, little-endian: 00 00 00 3F
        assertThat(bytes).hasSize(16).startsWith(0, 0, 0, 0x3F);
        assertThat(EmbeddingResponse.decode(encoded)).containsExactly(VECTOR);
        assertThat(EmbeddingResponse.decode(EmbeddingResponse.encode(VECTOR, EncodingFormat.FLOAT)))
                .containsExactly(VECTOR);
    }

    @Test
    void output_shouldRoundTripThroughTheStoredResult() {
        JobResult.Output output = JobResult.Output.embeddings(EmbeddingResponse.of(List.of(VECTOR),
                EncodingFormat.BASE64, "m", 3));

        JobResult.Output read = JobJson.read(JobJson.write(output), JobResult.Output.class);

        assertThat(read).isEqualTo(output);
        assertThat(read.usage()).isEqualTo(JobResult.Usage.of(3, 0));
    }

    @Test
    void reduce_shouldKeepTheFirstValues_atUnitLength() {
        float[] reduced = VectorLength.reduce(new float[] {3, 4, 12}, 2);

        assertThat(reduced).containsExactly(0.6f, 0.8f);
        assertThat(VectorLength.reduce(VECTOR, null)).isSameAs(VECTOR);
        assertThat(VectorLength.reduce(VECTOR, 4)).isSameAs(VECTOR);
        assertThat(VectorLength.refusal(5, 4)).hasValueSatisfying(why -> assertThat(why).contains("at most 4"));
        assertThat(VectorLength.refusal(4, 4)).isEmpty();
        assertThatThrownBy(() -> VectorLength.reduce(VECTOR, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cacheKey_shouldCoverTheInputsTheirOrderDimensionsAndFormat_andEmbeddingJobsAreAlwaysCacheable() {
        InferenceJob job = job("{\"task\":\"embed\",\"input\":[\"a\",\"b\"]}");

        assertThat(CachePolicy.isDeterministic(job)).isTrue();
        CacheKey key = CacheKey.of("v1", job);
        assertThat(CacheKey.of("v1", job("{\"task\":\"embed\",\"input\":[\"a\",\"b\"],\"requestId\":"
                + "\"550e8400-e29b-41d4-a716-446655440000\",\"priority\":3}"))).isEqualTo(key);
        assertThat(CacheKey.of("v1", job("{\"task\":\"embed\",\"input\":[\"a\",\"b\"],\"encodingFormat\":"
                + "\"float\"}"))).as("float is the default").isEqualTo(key);
        assertThat(List.of(
                CacheKey.of("v1", job("{\"task\":\"embed\",\"input\":[\"b\",\"a\"]}")),
                CacheKey.of("v1", job("{\"task\":\"embed\",\"input\":[\"a\"]}")),
                CacheKey.of("v1", job("{\"task\":\"embed\",\"input\":[\"a\",\"b\"],\"dimensions\":8}")),
                CacheKey.of("v1", job("{\"task\":\"embed\",\"input\":[\"a\",\"b\"],\"encodingFormat\":\"base64\"}")),
                CacheKey.of("v2", job))).doesNotContain(key).doesNotHaveDuplicates();
    }

    private static InferenceJob job(String json) {
        return ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(json, JobRequestParser.Source.API))
                .job().submittedBy(OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS));
    }
}
