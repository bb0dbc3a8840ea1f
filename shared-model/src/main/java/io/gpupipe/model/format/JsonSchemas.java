package io.gpupipe.model.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobJson;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * JSON Schema 2020-12 through networknt's json-schema-validator (Apache-2.0): a client's schema judged against the
 * draft's own meta-schema (bundled in the library, never fetched), and a model's output judged against a client's
 * schema. Schemas reach the library as text, since it reads JSON with its own (Jackson 3) mapper.
 */
final class JsonSchemas {
    /** The draft every schema is read as: the one OpenAI's structured outputs take (a subset of it). */
    static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
    /** How many of the validator's messages an error names (the first ones); the rest are counted. */
    private static final int MESSAGES_SHOWN = 3;
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12, builder -> builder.schemaLoader(loader -> loader
                    .fetchRemoteResources(false)));
    private static final Schema META_SCHEMA = REGISTRY.getSchema(SchemaLocation.of(DRAFT_2020_12));
    /** One document and nothing after it: "{}{}" or "{} trailing" is not one JSON document. */
    private static final ObjectReader ONE_DOCUMENT = JobJson.mapper().reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonSchemas() {
    }

    /** What the 2020-12 meta-schema finds wrong with {@code schema}; empty when it is a valid JSON Schema. */
    static Optional<String> metaSchemaViolation(JsonNode schema) {
        return describe(META_SCHEMA.validate(JobJson.write(schema), InputFormat.JSON));
    }

    /** Why {@code output} is not one JSON object; empty when it is. */
    static Optional<String> objectViolation(String output) {
        try {
            JsonNode document = ONE_DOCUMENT.readTree(output);
            if (document == null || document.isMissingNode() || !document.isObject()) {
                return Optional.of("the output is " + (document == null || document.isMissingNode() ? "empty"
                        : FieldReader.describe(document)) + ", not a JSON object");
            }
            return Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.of("the output is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** Why {@code output} is not a JSON document valid against {@code schema}; empty when it is. */
    static Optional<String> instanceViolation(JsonNode schema, String output) {
        JsonNode document;
        try {
            document = ONE_DOCUMENT.readTree(output);
        } catch (JsonProcessingException e) {
            return Optional.of("the output is not valid JSON: " + e.getOriginalMessage());
        }
        if (document == null || document.isMissingNode()) {
            return Optional.of("the output is empty, not a JSON document");
        }
        try {
            Schema compiled = REGISTRY.getSchema(JobJson.write(schema), InputFormat.JSON);
            return describe(compiled.validate(JobJson.write(document), InputFormat.JSON))
                    .map(why -> "the output does not match the schema: " + why);
        } catch (RuntimeException e) {
            // a schema the submission checks let through but the validator cannot apply: the output is not known
            // to match, so it is not passed off as matching
            return Optional.of("the schema could not be applied to the output: " + e.getMessage());
        }
    }

    private static Optional<String> describe(List<Error> errors) {
        if (errors.isEmpty()) {
            return Optional.empty();
        }
        String shown = errors.stream().limit(MESSAGES_SHOWN).map(Error::toString).collect(Collectors.joining("; "));
        int more = errors.size() - MESSAGES_SHOWN;
        return Optional.of(more > 0 ? shown + " (and " + more + " more)" : shown);
    }
}
