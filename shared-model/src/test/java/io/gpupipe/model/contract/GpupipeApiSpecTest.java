package io.gpupipe.model.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.gpupipe.model.api.ApiDescription;
import io.gpupipe.model.contract.GpupipeApiSpec.Exchange;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The API description is a valid OpenAPI 3.1 document, and the judge built on it ({@link GpupipeApiSpec}) refuses
 * what it must: an undocumented or mis-typed field, an undocumented status, a missing Retry-After, a request the
 * description forbids that was accepted, an undocumented route.
 */
class GpupipeApiSpecTest {
    private static final String ID = "0b9d5a4e-8f7a-4c1e-9d2b-3f6a7e8c9d01";
    private static final String OWNER = "sha256:" + "ab".repeat(32);
    private final GpupipeApiSpec spec = GpupipeApiSpec.get();

    @Test
    void description_shouldBeValidOpenApi31_whenReadBySwaggerParser() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(
                new String(ApiDescription.bytes(), StandardCharsets.UTF_8), null, options);

        assertThat(parsed.getMessages()).as("swagger-parser's findings").isEmpty();
        assertThat(parsed.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(parsed.getOpenAPI().getPaths()).containsKeys("/v1/jobs", "/infer", "/v1/jobs/{id}",
                "/v1/batches/uploads", "/v1/batches", "/v1/batches/{id}", "/v1/batches/{id}/cancel",
                "/v1/batches/{id}/retry", "/v1/batches/{id}/output", "/v1/batches/{id}/errors", "/v1/usage");
        assertThat(parsed.getOpenAPI().getComponents().getSecuritySchemes()).containsOnlyKeys("sigv4", "jwt");
    }

    @Test
    void description_shouldHoldOnlyValidJsonSchemas_whenEachIsCheckedAgainstTheMetaSchema() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(Dialects.getDraft202012());
        var metaSchema = registry.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        List<String> problems = new ArrayList<>();
        spec.document().path("components").path("schemas").properties().forEach(entry -> {
            for (Error error : metaSchema.validate(entry.getValue())) {
                problems.add(entry.getKey() + ": " + error);
            }
        });

        assertThat(problems).isEmpty();
    }

    @Test
    void description_shouldCloseEveryObjectOfAnAnswer_soThatAnUndocumentedFieldFails() {
        JsonNode schemas = spec.document().path("components").path("schemas");
        Set<String> answered = new HashSet<>();
        refs(spec.document().path("components").path("responses"), answered);
        spec.document().path("paths").values().forEach(item -> item.values().forEach(operation ->
                refs(operation.path("responses"), answered)));
        answered.forEach(name -> {
            List<String> open = new ArrayList<>();
            openObjects(schemas.get(name), "#/components/schemas/" + name, open);
            assertThat(open).as("objects of answer schema %s that accept undeclared fields", name).isEmpty();
        });
        assertThat(answered).contains("JobStatus", "SubmitAccepted", "ErrorResponse", "Batch", "Upload");
    }

    @Test
    void judge_shouldPass_whenTheAnswerIsDocumented() {
        assertThat(spec.problems(submit("{\"prompt\":\"Hi\"}", 202, "{\"requestId\":\"" + ID + "\",\"tier\":"
                + "\"small\",\"status\":\"queued\",\"statusUrl\":\"http://localhost/v1/jobs/" + ID + "\"}")))
                .isEmpty();
        assertThat(spec.problems(status(200, "{\"requestId\":\"" + ID + "\",\"status\":\"succeeded\",\"result\":"
                + "{\"requestId\":\"" + ID + "\",\"status\":\"succeeded\",\"task\":\"generate\",\"result\":{\"text\":"
                + "\"Hi\",\"usage\":{\"promptTokens\":1,\"completionTokens\":1,\"totalTokens\":2},\"finishReason\":"
                + "\"stop\"},\"owner\":\"" + OWNER + "\"},\"resultLocation\":\"s3://bucket/results/x.json\"}")))
                .isEmpty();
    }

    @Test
    void judge_shouldFail_whenTheAnswerHasAnUndocumentedField() {
        assertThat(spec.problems(submit("{\"prompt\":\"Hi\"}", 202, "{\"requestId\":\"" + ID + "\",\"tier\":"
                + "\"small\",\"status\":\"queued\",\"statusUrl\":\"/v1/jobs/" + ID + "\",\"eta\":3}")))
                .singleElement().asString().contains("eta");
        // nested: a field the result object does not declare
        assertThat(spec.problems(status(200, "{\"requestId\":\"" + ID + "\",\"status\":\"failed\",\"result\":"
                + "{\"requestId\":\"" + ID + "\",\"status\":\"failed\",\"error\":{\"code\":\"expired\",\"message\":"
                + "\"late\",\"retryIn\":5}}}"))).singleElement().asString().contains("retryIn");
    }

    @Test
    void judge_shouldFail_whenAnAnswersFieldIsMistyped() {
        assertThat(spec.problems(submit("{\"prompt\":\"Hi\"}", 202, "{\"requestId\":\"" + ID + "\",\"tier\":7,"
                + "\"status\":\"queued\",\"statusUrl\":\"/v1/jobs/" + ID + "\"}"))).singleElement().asString()
                .contains("tier");
        assertThat(spec.problems(status(200, "{\"requestId\":\"" + ID + "\",\"status\":\"done\"}")))
                .singleElement().asString().contains("status");
    }

    @Test
    void judge_shouldFail_whenTheStatusIsNotDocumentedOrARequiredHeaderIsMissing() {
        assertThat(spec.problems(submit("{\"prompt\":\"Hi\"}", 204, ""))).singleElement().asString()
                .contains("status 204 is not documented");
        String quota = "{\"errors\":[{\"field\":\"owner\",\"code\":\"quota_exceeded\",\"message\":\"limit\"}],"
                + "\"retryable\":true}";
        assertThat(spec.problems(submit("{\"prompt\":\"Hi\"}", 429, quota))).singleElement().asString()
                .contains("Retry-After");
        assertThat(spec.problems(new Exchange("POST", "/v1/jobs", "application/json",
                bytes("{\"prompt\":\"Hi\"}"), 429, Map.of("content-type", "application/json", "retry-after", "30"),
                bytes(quota)))).isEmpty();
    }

    @Test
    void judge_shouldFail_whenARequestTheDescriptionRefusesWasAccepted() {
        String accepted = "{\"requestId\":\"" + ID + "\",\"tier\":\"small\",\"status\":\"queued\",\"statusUrl\":"
                + "\"/v1/jobs/" + ID + "\"}";
        String refusal = "{\"errors\":[{\"field\":\"maxTokens\",\"code\":\"invalid_type\",\"message\":\"x\"}]}";

        assertThat(spec.problems(submit("{\"prompt\":\"Hi\",\"maxTokens\":\"many\"}", 202, accepted)))
                .singleElement().asString().contains("refuses this request").contains("maxTokens");
        assertThat(spec.problems(submit("{\"prompt\":\"Hi\",\"maxTokens\":\"many\"}", 400, refusal))).isEmpty();
        assertThat(spec.problems(new Exchange("POST", "/v1/jobs", "text/plain", bytes("{\"prompt\":\"Hi\"}"), 202,
                json(), bytes(accepted)))).singleElement().asString().contains("text/plain");
        assertThat(spec.problems(new Exchange("GET", "/v1/jobs/not-a-uuid", null, null, 200, json(),
                bytes("{\"requestId\":\"" + ID + "\",\"status\":\"queued\"}")))).singleElement().asString()
                .contains("path parameter id");
    }

    @Test
    void judge_shouldCountAnIntegerBeyondLongAsRefused_insteadOfCrashing() {
        // RouterHttpFuzzTest's seed -7123387013276558823: the validator cannot hold -2.26e107 as a long
        String body = "{\"prompt\":\"Hi\",\"ttlSeconds\":-2.2662020489637494E107}";
        String accepted = "{\"requestId\":\"" + ID + "\",\"tier\":\"small\",\"status\":\"queued\",\"statusUrl\":"
                + "\"/v1/jobs/" + ID + "\"}";
        String refusal = "{\"errors\":[{\"field\":\"ttlSeconds\",\"code\":\"out_of_range\",\"message\":\"x\"}]}";

        assertThat(spec.problems(submit(body, 202, accepted))).singleElement().asString()
                .contains("refuses this request").contains("-2.2662020489637494E107");
        assertThat(spec.problems(submit(body, 400, refusal))).isEmpty();
    }

    @Test
    void judge_shouldReadBodiesAsDeepAsTheRouterDoes() {
        String accepted = "{\"requestId\":\"" + ID + "\",\"tier\":\"small\",\"status\":\"queued\",\"statusUrl\":"
                + "\"/v1/jobs/" + ID + "\"}";
        int depth = GpupipeApiSpec.MAX_NESTING_DEPTH - 1;
        String deep = "{\"prompt\":\"x\",\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "}";

        assertThat(spec.problems(submit(deep, 202, accepted))).isEmpty();
        // an escaped lone surrogate in an ignored field's name: RFC 8259's grammar allows it, and so does the router
        assertThat(spec.problems(submit("{\"prompt\":\"x\",\"a\\udab5?\":1,\"n\":1e400}", 202, accepted)))
                .isEmpty();
    }

    @Test
    void judge_shouldReadMediaTypesAsTheRouterDoes() {
        String accepted = "{\"requestId\":\"" + ID + "\",\"tier\":\"small\",\"status\":\"queued\",\"statusUrl\":"
                + "\"/v1/jobs/" + ID + "\"}";
        for (String type : new String[] {null, "APPLICATION/JSON; charset=UTF-8", "application/vnd.gpupipe+json"}) {
            assertThat(spec.problems(new Exchange("POST", "/v1/jobs", type, bytes("{\"prompt\":\"Hi\"}"), 202,
                    json(), bytes(accepted)))).as(type).isEmpty();
        }
    }

    @Test
    void judge_shouldJudgeEachLineOfAJsonLinesPage() {
        String batch = "batch_" + ID;
        String line = "{\"id\":\"batch_req_1\",\"custom_id\":\"a\",\"response\":null,\"error\":{\"code\":"
                + "\"batch_cancelled\",\"message\":\"cancelled\"}}";
        Map<String, String> jsonl = Map.of("content-type", "application/jsonl", "gpupipe-pages", "2", "link",
                "<?page=1>; rel=\"next\"");

        assertThat(spec.problems(new Exchange("GET", "/v1/batches/" + batch + "/errors", null, null, 200, jsonl,
                bytes(line + "\n" + line + "\n")))).isEmpty();
        assertThat(spec.problems(new Exchange("GET", "/v1/batches/" + batch + "/output", null, null, 200, jsonl,
                bytes("")))).as("no line finished yet").isEmpty();
        assertThat(spec.problems(new Exchange("GET", "/v1/batches/" + batch + "/errors", null, null, 200, jsonl,
                bytes(line + "\n" + line.replace("\"error\":", "\"retry\":true,\"error\":") + "\n"))))
                .singleElement().asString().contains("line 2").contains("retry");
        assertThat(spec.problems(new Exchange("GET", "/v1/batches/" + batch + "/errors", null, null, 200,
                Map.of("content-type", "application/jsonl"), bytes(line + "\n")))).singleElement().asString()
                .contains("Gpupipe-Pages");
    }

    @Test
    void judge_shouldAcceptOnly404Or405_whenTheRouteIsNotDocumented() {
        String notFound = "{\"errors\":[{\"field\":\"path\",\"code\":\"not_found\",\"message\":\"no such\"}]}";

        assertThat(spec.problems(new Exchange("GET", "/v2/nothing", null, null, 404, json(), bytes(notFound))))
                .isEmpty();
        assertThat(spec.problems(new Exchange("PUT", "/v1/jobs", null, null, 405, json(), bytes(notFound))))
                .isEmpty();
        assertThat(spec.problems(new Exchange("GET", "/v2/nothing", null, null, 200, json(), bytes("{}"))))
                .singleElement().asString().contains("no operation");
        assertThatThrownBy(() -> spec.assertConforms(new Exchange("GET", "/v2/nothing", null, null, 404, json(),
                bytes("{\"error\":\"nope\"}")))).isInstanceOf(AssertionError.class).hasMessageContaining("error");
    }

    private static Exchange submit(String request, int status, String answer) {
        return new Exchange("POST", "/v1/jobs", "application/json", bytes(request), status, json(), bytes(answer));
    }

    private static Exchange status(int status, String answer) {
        return new Exchange("GET", "/v1/jobs/" + ID, null, null, status, json(), bytes(answer));
    }

    private static Map<String, String> json() {
        return Map.of("content-type", "application/json");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The component schemas {@code node} refers to, directly or through the schemas they refer to. */
    private void refs(JsonNode node, Set<String> found) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.asString().startsWith("#/components/schemas/")) {
                String name = ref.asString().substring("#/components/schemas/".length());
                if (found.add(name)) {
                    refs(spec.document().path("components").path("schemas").path(name), found);
                }
            }
            node.values().forEach(child -> refs(child, found));
        } else if (node.isArray()) {
            node.values().forEach(child -> refs(child, found));
        }
    }

    /** Object schemas under {@code schema} that declare properties but leave others allowed. */
    private static void openObjects(JsonNode schema, String where, List<String> open) {
        if (!schema.isObject()) {
            return;
        }
        if (schema.has("properties") && !schema.has("additionalProperties") && !schema.has("unevaluatedProperties")) {
            open.add(where);
        }
        schema.properties().forEach(entry -> {
            if (!entry.getKey().equals("properties")) {
                openObjects(entry.getValue(), where + "/" + entry.getKey(), open);
            } else {
                entry.getValue().properties().forEach(p -> openObjects(p.getValue(), where + "/properties/"
                        + p.getKey(), open));
            }
            if (entry.getValue().isArray()) {
                int i = 0;
                for (JsonNode item : entry.getValue()) {
                    openObjects(item, where + "/" + entry.getKey() + "/" + i++, open);
                }
            }
        });
    }
}
