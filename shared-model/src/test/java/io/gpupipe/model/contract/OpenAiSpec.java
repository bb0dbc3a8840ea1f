package io.gpupipe.model.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * OpenAI's published OpenAPI description of its API ({@code ../shared/contracts/openai-openapi.yaml}, openai/
 * openai-openapi, MIT) as the judge of every OpenAI-shaped body we send, serve or write: a body must validate against
 * the component schema (JSON Schema 2020-12 in the OpenAPI 3.1 dialect, networknt json-schema-validator) and carry
 * no field the schema does not declare, except the named {@link Deviation}s. Loaded once per test JVM; tests skip
 * with a message when the file is absent (it is not part of the repository).
 */
public final class OpenAiSpec {
    /** Where the description lives, relative to the repository's parent; {@code -Dgpupipe.openai.spec} overrides. */
    public static final String RELATIVE_LOCATION = "shared/contracts/openai-openapi.yaml";
    private static final String IRI = "https://gpupipe.test/openai-openapi.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static OpenAiSpec instance;

    private final JsonNode document;
    private final SchemaRegistry registry;
    private final DeclaredFields declared;

    private OpenAiSpec(JsonNode document) {
        this.document = document;
        this.registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(),
                builder -> builder.schemas(Map.of(IRI, JSON.writeValueAsString(document))));
        this.declared = new DeclaredFields(document);
    }

    /** The loaded description; skips the calling test (JUnit assumption) when the file is not there. */
    public static synchronized OpenAiSpec get() {
        if (instance == null) {
            Optional<Path> file = locate();
            Assumptions.assumeTrue(file.isPresent(), "OpenAI's API description (" + RELATIVE_LOCATION + " beside "
                    + "the repository, or -Dgpupipe.openai.spec) is absent: the OpenAI schema judge is skipped");
            instance = new OpenAiSpec(load(file.get()));
        }
        return instance;
    }

    static Optional<Path> locate() {
        String configured = System.getProperty("gpupipe.openai.spec");
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isRegularFile);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(RELATIVE_LOCATION))) {
                return Optional.of(dir.resolve(RELATIVE_LOCATION));
            }
        }
        return Optional.empty();
    }

    private static JsonNode load(Path file) {
        try {
            // Four whitespace-only lines (one inside StopConfiguration's "example: |+") make the YAML 1.2 parser
            // refuse the file ("leading empty lines contain more spaces than the first non-empty line") where PyYAML
            // reads it; blanking them changes no schema, only that example's whitespace.
            String yaml = Files.readString(file).replaceAll("(?m)^[ \t]+$", "");
            JsonNode document = YAMLMapper.builder().build().readTree(yaml);
            NullableKeyword.rewrite(document);
            DiscriminatorHints.remove(document);
            return document;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The component schema of an operation's JSON request body ({@code /completions}: CreateCompletionRequest). */
    public String requestSchema(String operationPath) {
        return refName(operation(operationPath).at("/requestBody/content/application~1json/schema/$ref"));
    }

    /** The component schema of an operation's {@code status} JSON response. */
    public String responseSchema(String operationPath, int status) {
        return refName(operation(operationPath).at("/responses/" + status + "/content/application~1json/schema/$ref"));
    }

    /** The media types an operation's {@code status} response may have. */
    public List<String> responseMediaTypes(String operationPath, int status) {
        List<String> types = new ArrayList<>();
        operation(operationPath).at("/responses/" + status + "/content").propertyNames().forEach(types::add);
        return types;
    }

    private JsonNode operation(String operationPath) {
        JsonNode post = document.path("paths").path(operationPath).path("post");
        assertThat(post.isObject()).as("POST %s in OpenAI's description", operationPath).isTrue();
        return post;
    }

    private static String refName(JsonNode ref) {
        assertThat(ref.isString()).as("a $ref to a component schema").isTrue();
        return ref.asString().substring("#/components/schemas/".length());
    }

    /** What is wrong with {@code json} as a {@code schema} (a component name), the deviations taken out first. */
    public List<String> problems(String schema, String json, Deviation... deviations) {
        assertThat(document.path("components").path("schemas").has(schema))
                .as("OpenAI's description has a component schema %s", schema).isTrue();
        JsonNode body = JSON.readTree(json);
        List<String> problems = new ArrayList<>(Deviations.takeOut(body, List.of(deviations)));
        for (Error error : registry.getSchema(SchemaLocation.of(IRI + "#/components/schemas/" + schema))
                .validate(body)) {
            problems.add(error.toString());
        }
        declared.undeclared(body, schema).forEach(path -> problems.add(path + ": not declared by OpenAI's "
                + schema + " (an extension must be named as a Deviation with its source)"));
        return problems;
    }

    /** Fails unless {@code json} conforms to {@code schema} once the named deviations are taken out. */
    public void assertConforms(String schema, String json, Deviation... deviations) {
        assertThat(problems(schema, json, deviations)).as("%s against OpenAI's %s", json, schema).isEmpty();
    }

    /**
     * OpenAPI 3.1 makes a discriminator a hint that must not change the validation outcome; OpenAI's have no
     * {@code mapping} and values ({@code role: user}) that name no component, which the validator would take as
     * "no schema for this value". Removed, so the {@code oneOf}/{@code anyOf} they sit on decide, as the spec says.
     */
    static final class DiscriminatorHints {
        private DiscriminatorHints() {
        }

        static void remove(JsonNode node) {
            if (node instanceof ObjectNode object) {
                object.remove("discriminator");
                object.properties().forEach(entry -> remove(entry.getValue()));
            } else if (node instanceof ArrayNode array) {
                array.forEach(DiscriminatorHints::remove);
            }
        }
    }

    /**
     * OpenAPI 3.0's {@code nullable: true} still appears in this 3.1 description (111 times), where JSON Schema
     * ignores it; the authors mean "or null", so it is rewritten into a null type before any validation, making the
     * judge no stricter than the description's authors.
     */
    static final class NullableKeyword {
        private NullableKeyword() {
        }

        static void rewrite(JsonNode node) {
            if (node instanceof ObjectNode object) {
                if (object.path("nullable").asBoolean(false)) {
                    allowNull(object);
                }
                object.properties().forEach(entry -> rewrite(entry.getValue()));
            } else if (node instanceof ArrayNode array) {
                array.forEach(NullableKeyword::rewrite);
            }
        }

        private static void allowNull(ObjectNode schema) {
            schema.remove("nullable");
            JsonNode type = schema.get("type");
            if (type != null && type.isString()) {
                schema.set("type", JsonNodeFactory.instance.arrayNode().add(type.asString()).add("null"));
                if (schema.get("enum") instanceof ArrayNode values) {
                    values.addNull();
                }
            } else if (type == null) {
                ObjectNode original = schema.deepCopy();
                schema.removeAll();
                schema.putArray("anyOf").add(original).addObject().put("type", "null");
            }
        }
    }
}
