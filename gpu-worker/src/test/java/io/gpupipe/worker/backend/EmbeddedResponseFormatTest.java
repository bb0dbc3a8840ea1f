package io.gpupipe.worker.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.worker.backend.embedded.EmbeddedBackend;
import io.gpupipe.worker.support.TestModels;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * llama.cpp's grammar from a job's response format (LlamaModel.jsonSchemaToGrammar) on TinyStories: a model that
 * knows nothing of JSON writes a document valid against the schema, and one cut by maxTokens is not.
 */
class EmbeddedResponseFormatTest {
    private static final Optional<Path> GGUF = TestModels.storiesGguf();
    private static final String PERSON = """
            {"type":"json_schema","json_schema":{"name":"person","schema":{"type":"object",
             "properties":{"name":{"type":"string","maxLength":12},"age":{"type":"integer"},
             "mood":{"enum":["happy","sad"]}},"required":["name","age","mood"],"additionalProperties":false}}}""";
    private static EmbeddedBackend backend;

    @BeforeAll
    static void load() {
        if (GGUF.isPresent()) {
            backend = new EmbeddedBackend(new EmbeddedBackend.Settings(GGUF, "kevin16", 512, 2, Optional.empty(),
                    Optional.empty()));
            backend.ensureReady();
        }
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void generate_shouldWriteADocumentValidAgainstTheSchema_whenTheJobHasOne() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        InferenceJob job = job("{\"prompt\":\"Once upon a time\",\"maxTokens\":200,\"temperature\":0,"
                + "\"responseFormat\":" + PERSON + "}");

        Generation generation = backend.generate(job, Duration.ofSeconds(60));

        assertThat(job.responseFormat().violation(generation.text())).as(generation.text()).isEmpty();
        JsonNode person = JobJson.read(generation.text(), JsonNode.class);
        assertThat(person.path("mood").asText()).isIn("happy", "sad");
        assertThat(person.path("age").isIntegralNumber()).isTrue();
    }

    @Test
    void generate_shouldWriteOnlyJsonObjectSyntax_whenTheJobAsksForAnObject() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        // given: json_object bounds nothing but the syntax, and TinyStories keeps adding members (seen: it has not
        // closed the object within 200 tokens), so the check is that every character written is an object's
        InferenceJob job = job("{\"prompt\":\"Lily had a ball.\",\"maxTokens\":60,\"temperature\":0,"
                + "\"responseFormat\":{\"type\":\"json_object\"}}");

        Generation generation = backend.generate(job, Duration.ofSeconds(60));

        assertThat(generation.text()).startsWith("{");
        assertThat(isJsonPrefix(generation.text())).as(generation.text()).isTrue();
    }

    /** True when {@code text} is JSON so far: a parser meets no error but the end of the input. */
    private static boolean isJsonPrefix(String text) {
        try (JsonParser parser = JobJson.mapper().getFactory().createParser(text)) {
            while (parser.nextToken() != null) {
                // every token read is checked; reading on to the end of the text is the whole check
            }
            return true;
        } catch (JsonEOFException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void generate_shouldStopMidDocument_whenMaxTokensIsTooSmall() {
        assumeTrue(GGUF.isPresent(), TestModels.MISSING);
        InferenceJob job = job("{\"prompt\":\"Once upon a time\",\"maxTokens\":3,\"temperature\":0,"
                + "\"responseFormat\":" + PERSON + "}");

        Generation generation = backend.generate(job, Duration.ofSeconds(60));

        assertThat(generation.finishReason()).isEqualTo("length");
        assertThat(generation.text()).startsWith("{");
        assertThat(job.responseFormat().violation(generation.text())).isPresent();
    }

    private static InferenceJob job(String json) {
        return ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(json, JobRequestParser.Source.API))
                .job();
    }
}
