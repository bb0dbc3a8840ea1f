package io.gpupipe.model.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser.Outcome;
import io.gpupipe.model.job.JobRequestParser.Source;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.routing.RoutingDecision;
import io.gpupipe.model.routing.RoutingPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Embedding jobs: {@code input}, {@code dimensions} and {@code encodingFormat}, each rule of the validator. */
class EmbeddingJobParsingTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private final JobRequestParser parser = new JobRequestParser();

    private InferenceJob valid(String json) {
        Outcome outcome = parser.parse(json, Source.API);
        assertThat(outcome).as(outcome.toString()).isInstanceOf(Outcome.Valid.class);
        return ((Outcome.Valid) outcome).job();
    }

    private List<FieldError> errors(String json) {
        Outcome outcome = parser.parse(json, Source.API);
        assertThat(outcome).isInstanceOf(Outcome.Invalid.class);
        return ((Outcome.Invalid) outcome).errors();
    }

    @Test
    void parse_shouldReadOneString_asAListOfOne_withTheDefaults() {
        InferenceJob job = valid("{\"task\":\"embed\",\"input\":\"Once upon a time\"}");

        assertThat(job.task()).isEqualTo(Task.EMBED);
        assertThat(job.input()).containsExactly("Once upon a time");
        assertThat(job.prompt()).isNull();
        assertThat(job.dimensions()).isNull();
        assertThat(job.embeddingFields().orElseThrow().format()).isEqualTo(EncodingFormat.FLOAT);
        assertThat(job.inputChars()).isEqualTo(16);
    }

    @Test
    void parse_shouldKeepTheInputsInOrder_withDimensionsAndFormat() {
        InferenceJob job = valid("{\"task\":\"embed\",\"input\":[\"b\",\"a\",\"b\"],\"dimensions\":32,"
                + "\"encodingFormat\":\"base64\"}");

        assertThat(job.input()).containsExactly("b", "a", "b");
        assertThat(job.dimensions()).isEqualTo(32);
        assertThat(job.encodingFormat()).isEqualTo(EncodingFormat.BASE64);
    }

    @Test
    void parse_shouldAcceptTheLimits_exactly() {
        String atMostInputs = "[" + "\"x\",".repeat(EmbeddingFields.MAX_INPUTS - 1) + "\"x\"]";
        String longest = "\"" + "y".repeat(EmbeddingFields.MAX_INPUT_CHARS) + "\"";

        assertThat(valid("{\"task\":\"embed\",\"input\":" + atMostInputs + "}").input())
                .hasSize(EmbeddingFields.MAX_INPUTS);
        assertThat(valid("{\"task\":\"embed\",\"input\":" + longest + ",\"dimensions\":"
                + EmbeddingFields.MAX_DIMENSIONS + "}").dimensions()).isEqualTo(EmbeddingFields.MAX_DIMENSIONS);
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "{\"task\":\"embed\"}                                    | input            | required",
        "{\"task\":\"embed\",\"input\":null}                     | input            | required",
        "{\"task\":\"embed\",\"input\":\"\"}                     | input            | required",
        "{\"task\":\"embed\",\"input\":\" \\n\"}                 | input            | required",
        "{\"task\":\"embed\",\"input\":[]}                       | input            | required",
        "{\"task\":\"embed\",\"input\":7}                        | input            | invalid_type",
        "{\"task\":\"embed\",\"input\":{\"text\":\"a\"}}         | input            | invalid_type",
        "{\"task\":\"embed\",\"input\":[\"a\",3]}                | input[1]         | invalid_type",
        "{\"task\":\"embed\",\"input\":[[1,2]]}                  | input[0]         | invalid_type",
        "{\"task\":\"embed\",\"input\":[\"a\",\"\"]}             | input[1]         | required",
        "{\"task\":\"embed\",\"input\":\"a\",\"dimensions\":0}   | dimensions       | out_of_range",
        "{\"task\":\"embed\",\"input\":\"a\",\"dimensions\":-3}  | dimensions       | out_of_range",
        "{\"task\":\"embed\",\"input\":\"a\",\"dimensions\":8193} | dimensions      | out_of_range",
        "{\"task\":\"embed\",\"input\":\"a\",\"dimensions\":1.5} | dimensions       | invalid_type",
        "{\"task\":\"embed\",\"input\":\"a\",\"dimensions\":\"8\"} | dimensions     | invalid_type",
        "{\"task\":\"embed\",\"input\":\"a\",\"encodingFormat\":\"int8\"} | encodingFormat | invalid_value",
        "{\"task\":\"embed\",\"input\":\"a\",\"encodingFormat\":\"Float\"} | encodingFormat | invalid_value",
        "{\"task\":\"embed\",\"input\":\"a\",\"encodingFormat\":1} | encodingFormat | invalid_type",
        "{\"task\":\"embed\",\"input\":\"a\",\"prompt\":\"p\"}   | prompt           | not_applicable",
        "{\"task\":\"embed\",\"input\":\"a\",\"maxTokens\":5}    | maxTokens        | not_applicable",
        "{\"task\":\"embed\",\"input\":\"a\",\"temperature\":0}  | temperature      | not_applicable",
        "{\"task\":\"embed\",\"input\":\"a\",\"topP\":1}         | topP             | not_applicable",
        "{\"task\":\"embed\",\"input\":\"a\",\"seed\":1}         | seed             | not_applicable",
        "{\"task\":\"embed\",\"input\":\"a\",\"voice\":\"v\"}    | voice            | not_applicable",
        "{\"task\":\"embed\",\"input\":\"a\",\"route\":\"small\"} | route           | invalid_value",
        "{\"task\":\"embed\",\"messages\":[{\"role\":\"user\",\"content\":\"c\"}],\"input\":\"a\"} | messages | not_applicable",
        "{\"prompt\":\"p\",\"input\":\"a\"}                      | input            | not_applicable",
        "{\"prompt\":\"p\",\"dimensions\":8}                     | dimensions       | not_applicable",
        "{\"prompt\":\"p\",\"encodingFormat\":\"float\"}         | encodingFormat   | not_applicable",
        "{\"task\":\"speech\",\"prompt\":\"p\",\"input\":\"a\"}  | input            | not_applicable",
        "{\"task\":\"Embed\",\"input\":\"a\"}                    | task             | invalid_value"})
    void parse_shouldNameTheField_whenARuleIsBroken(String json, String field, String code) {
        assertThat(errors(json)).extracting(FieldError::field, FieldError::code)
                .contains(org.assertj.core.groups.Tuple.tuple(field, code));
    }

    @Test
    void parse_shouldRefuseTooManyInputs_tooLongInputs_andTooManyCharactersInAll() {
        String tooMany = "[" + "\"x\",".repeat(EmbeddingFields.MAX_INPUTS) + "\"x\"]";
        String tooLong = "y".repeat(EmbeddingFields.MAX_INPUT_CHARS + 1);
        String eighth = "z".repeat(EmbeddingFields.MAX_INPUT_CHARS);
        String overTotal = "[" + ("\"" + eighth + "\",").repeat(12) + "\"" + eighth + "\"]";

        assertThat(errors("{\"task\":\"embed\",\"input\":" + tooMany + "}")).singleElement()
                .satisfies(e -> assertThat(e).extracting(FieldError::field, FieldError::code)
                        .containsExactly("input", "too_long"));
        assertThat(errors("{\"task\":\"embed\",\"input\":\"" + tooLong + "\"}")).singleElement()
                .satisfies(e -> assertThat(e.code()).isEqualTo("too_long"));
        assertThat(errors("{\"task\":\"embed\",\"input\":[\"a\",\"" + tooLong + "\"]}")).singleElement()
                .satisfies(e -> assertThat(e.field()).isEqualTo("input[1]"));
        assertThat(errors("{\"task\":\"embed\",\"input\":" + overTotal + "}")).singleElement()
                .satisfies(e -> assertThat(e.message()).contains(EmbeddingFields.MAX_TOTAL_CHARS + " characters"));
    }

    @Test
    void parse_shouldReportAtMostTenBadInputs_soA400StaysSmall() {
        String twenty = "[" + "1,".repeat(19) + "1]";

        assertThat(errors("{\"task\":\"embed\",\"input\":" + twenty + "}")).hasSize(10)
                .allSatisfy(e -> assertThat(e.code()).isEqualTo("invalid_type"));
    }

    @Test
    void parse_shouldReportEveryBadFieldAtOnce() {
        assertThat(errors("{\"task\":\"embed\",\"input\":[1,\"\"],\"dimensions\":0,\"encodingFormat\":\"hex\","
                + "\"maxTokens\":9}")).extracting(FieldError::field)
                .containsExactlyInAnyOrder("input[0]", "input[1]", "dimensions", "encodingFormat", "maxTokens");
    }

    @Test
    void queueMessage_shouldCarryTheJobIntact_andTheWorkerReadsItBack() {
        InferenceJob job = valid("{\"requestId\":\"550e8400-e29b-41d4-a716-446655440000\",\"task\":\"embed\","
                + "\"input\":[\"\\uFFFF odd\",\"b\"],\"dimensions\":4,\"encodingFormat\":\"base64\"}")
                .submittedBy(ALICE);

        Outcome read = parser.parse(JobMessage.inline(job), Source.QUEUE);

        assertThat(read).isInstanceOfSatisfying(Outcome.Valid.class, v -> assertThat(v.job()).isEqualTo(job));
        assertThat(JobJson.read(JobJson.write(job), InferenceJob.class)).isEqualTo(job);
    }

    @Test
    void route_shouldSendEveryEmbeddingJob_toTheEmbeddingTier_whateverItsLength() {
        RoutingPolicy routing = RoutingPolicy.defaults();
        String longInput = "w".repeat(5_000);

        RoutingDecision shortJob = routing.route(valid("{\"task\":\"embed\",\"input\":\"a\"}"));
        RoutingDecision longJob = routing.route(valid("{\"task\":\"embed\",\"input\":[\"" + longInput + "\"]}"));

        assertThat(shortJob.tier()).isEqualTo(Tier.of("embed"));
        assertThat(longJob.tier()).isEqualTo(Tier.of("embed"));
        assertThat(longJob.reason()).isEqualTo(RoutingDecision.Reason.TASK_DEFAULT);
        assertThat(valid("{\"task\":\"embed\",\"input\":\"a\",\"route\":\"embed\"}").route())
                .isEqualTo(Tier.of("embed"));
    }
}
