package io.gpupipe.model.contract;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.api.ApiDescription;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Our own OpenAPI description ({@link ApiDescription}) as the judge of every HTTP exchange with the router: the
 * operation is found from the description's {@code paths} (method and path template), then
 * <ul>
 *   <li>the answer's status must be one the operation lists, its {@code Content-Type} one of that response's media
 *       types, its required headers present and valid, and its body valid against that response's schema (JSON
 *       Schema 2020-12 in the OpenAPI 3.1 dialect, networknt json-schema-validator). The response schemas are closed
 *       ({@code additionalProperties: false}), so an undocumented field fails like a mis-typed one;</li>
 *   <li>a request the description refuses (path parameter, media type or body) must be answered 4xx: a router that
 *       accepts what the description forbids has drifted from it. A request the description accepts may still be
 *       refused, for the rules between fields that the router checks (a voice on a text job, ...).</li>
 * </ul>
 * A path or method the description lacks must be answered 404 or 405 with the error body. The media type of a
 * request is read as the router reads it: without parameters, in any letter case, a missing one and any
 * {@code application/*+json} being JSON (RFC 6839's structured suffix). Security requirements are not judged: API
 * Gateway enforces them, before the router.
 */
public final class GpupipeApiSpec {
    private static final String IRI = "https://gpupipe.test/gpupipe-openapi.json";
    private static final String JSON_TYPE = OpenApiPaths.JSON_TYPE;
    /**
     * As deep as the router's Jackson 2 reads (1,000 levels); Jackson 3 stops at 500 by default, which would make the
     * judge refuse JSON the router rightly reads (a fuzzed body nested 501 deep in an ignored field).
     */
    static final int MAX_NESTING_DEPTH = 1_000;
    private static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build()).build()).build();
    private static GpupipeApiSpec instance;

    private final JsonNode document;
    private final SchemaRegistry registry;
    private final List<OpenApiPaths.Route> routes = new ArrayList<>();
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    /** One HTTP exchange: what was asked and what was answered; headers by lower-case name. */
    public record Exchange(String method, String rawPath, String contentType, byte[] requestBody, int status,
                           Map<String, String> responseHeaders, byte[] responseBody) {
        public Exchange {
            requestBody = requestBody == null ? new byte[0] : requestBody;
            responseBody = responseBody == null ? new byte[0] : responseBody;
            responseHeaders = Map.copyOf(responseHeaders);
        }

        String responseHeader(String name) {
            return responseHeaders.get(name.toLowerCase(Locale.ROOT));
        }

        @Override
        public String toString() {
            return method + " " + rawPath + " -> " + status + " " + new String(responseBody, StandardCharsets.UTF_8);
        }
    }

        GpupipeApiSpec(String yaml) {
        this.document = YAMLMapper.builder().build().readTree(yaml);
        this.registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(),
                builder -> builder.schemas(Map.of(IRI, JSON.writeValueAsString(document))));
        document.path("paths").propertyNames().forEach(template -> routes.add(OpenApiPaths.route(template)));
        // a literal segment wins over a template one (/v1/batches/uploads over /v1/batches/{id}), as in API Gateway
        routes.sort(Comparator.comparingInt(r -> r.parameters().size()));
    }

    /** The description on the classpath, loaded once per JVM. */
    public static synchronized GpupipeApiSpec get() {
        if (instance == null) {
            instance = new GpupipeApiSpec(new String(ApiDescription.bytes(), StandardCharsets.UTF_8));
        }
        return instance;
    }

    public JsonNode document() {
        return document;
    }

    /** Fails with every problem of {@code exchange}, naming it. */
    public void assertConforms(Exchange exchange) {
        List<String> problems = problems(exchange);
        if (!problems.isEmpty()) {
            throw new AssertionError("the exchange " + exchange + " does not conform to the API description ("
                    + ApiDescription.RESOURCE + "):\n  " + String.join("\n  ", problems));
        }
    }

    /** What is wrong with {@code exchange} by the description; empty when it conforms. */
    public List<String> problems(Exchange exchange) {
        String method = exchange.method().toLowerCase(Locale.ROOT);
        for (OpenApiPaths.Route route : routes) {
            var matcher = route.pattern().matcher(exchange.rawPath());
            if (!matcher.matches()) {
                continue;
            }
            String pointer = "/paths/" + OpenApiPaths.escape(route.template());
            JsonNode operation = document.at(pointer + "/" + method);
            if (operation.isMissingNode()) {
                continue;
            }
            List<String> refused = new ArrayList<>();
            for (int i = 0; i < route.parameters().size(); i++) {
                String value = URLDecoder.decode(matcher.group(i + 1), StandardCharsets.UTF_8);
                refused.addAll(parameterProblems(pointer, method, route.parameters().get(i), value));
            }
            refused.addAll(requestBodyProblems(operation, pointer + "/" + method, exchange));
            List<String> problems = new ArrayList<>(responseProblems(operation, pointer + "/" + method, exchange));
            if (!refused.isEmpty() && exchange.status() < 400) {
                problems.add("the description refuses this request, but the router accepted it with "
                        + exchange.status() + ": " + String.join("; ", refused));
            }
            return problems;
        }
        return undocumentedRouteProblems(exchange);
    }

    private List<String> undocumentedRouteProblems(Exchange exchange) {
        String what = exchange.method() + " " + exchange.rawPath();
        if (exchange.status() != 404 && exchange.status() != 405) {
            return List.of(what + " is no operation of the description, yet was answered " + exchange.status()
                    + " (an undocumented route must answer 404 or 405)");
        }
        return bodyProblems(what + " (undocumented route) answer", "/components/schemas/ErrorResponse",
                exchange.responseBody());
    }

    private List<String> parameterProblems(String pathPointer, String method, String name, String value) {
        List<ResolvedNode> declared = new ArrayList<>();
        document.at(pathPointer + "/parameters").forEach(p -> declared.add(resolve(p, pathPointer + "/parameters")));
        document.at(pathPointer + "/" + method + "/parameters")
                .forEach(p -> declared.add(resolve(p, pathPointer + "/" + method + "/parameters")));
        Optional<ResolvedNode> parameter = declared.stream()
                .filter(p -> "path".equals(p.node().path("in").asString()) && name.equals(p.node().path("name")
                        .asString())).findFirst();
        if (parameter.isEmpty()) {
            return List.of("path parameter {" + name + "} is not declared");
        }
        return validate("path parameter " + name, schemaOf(parameter.get(), "/schema"),
                JsonNodeFactory.instance.stringNode(value));
    }

    private List<String> requestBodyProblems(JsonNode operation, String operationPointer, Exchange exchange) {
        if (!operation.has("requestBody")) {
            return List.of();
        }
        ResolvedNode body = resolve(operation.get("requestBody"), operationPointer + "/requestBody");
        String mediaType = OpenApiPaths.mediaType(exchange.contentType());
        if (!JSON_TYPE.equals(mediaType)) {
            return body.node().path("content").has(mediaType) ? List.of()
                    : List.of("request Content-Type " + exchange.contentType() + " is not documented");
        }
        if (!body.node().path("content").has(JSON_TYPE)) {
            return List.of("request Content-Type " + exchange.contentType() + " is not documented");
        }
        if (exchange.requestBody().length == 0) {
            return body.node().path("required").asBoolean(false) ? List.of("the request body is required") : List.of();
        }
        return bodyProblems("request body", schemaOf(body, "/content/" + OpenApiPaths.escape(JSON_TYPE)
                + "/schema"), exchange.requestBody());
    }

    private List<String> responseProblems(JsonNode operation, String operationPointer, Exchange exchange) {
        String what = exchange.method() + " " + exchange.rawPath() + " answer " + exchange.status();
        JsonNode declared = operation.path("responses").path(Integer.toString(exchange.status()));
        if (declared.isMissingNode()) {
            return List.of(what + ": status " + exchange.status() + " is not documented for this operation");
        }
        ResolvedNode response = resolve(declared, operationPointer + "/responses/" + exchange.status());
        List<String> problems = new ArrayList<>();
        for (Iterator<String> names = response.node().path("headers").propertyNames().iterator(); names.hasNext(); ) {
            String name = names.next();
            ResolvedNode header = resolve(response.node().path("headers").get(name),
                    response.pointer() + "/headers/" + OpenApiPaths.escape(name));
            String value = exchange.responseHeader(name);
            if (value == null) {
                if (header.node().path("required").asBoolean(false)) {
                    problems.add(what + ": required header " + name + " is missing");
                }
            } else {
                problems.addAll(validate(what + " header " + name, schemaOf(header, "/schema"),
                        JsonNodeFactory.instance.stringNode(value)));
            }
        }
        JsonNode content = response.node().path("content");
        String contentType = exchange.responseHeader("Content-Type");
        if (content.isMissingNode()) {
            if (exchange.responseBody().length > 0) {
                problems.add(what + ": a body where the description documents none");
            }
            return problems;
        }
        String mediaType = contentType == null ? null : OpenApiPaths.mediaType(contentType);
        if (mediaType == null || !content.has(mediaType)) {
            problems.add(what + ": Content-Type " + contentType + " is not documented (" + String.join(", ",
                    content.propertyNames()) + ")");
            return problems;
        }
        String schema = schemaOf(response, "/content/" + OpenApiPaths.escape(mediaType) + "/schema");
        boolean jsonLines = OpenApiPaths.JSON_LINES_TYPE.equals(mediaType); // then the schema is each line's
        List<byte[]> bodies = jsonLines ? OpenApiPaths.jsonLines(exchange.responseBody())
                : List.of(exchange.responseBody());
        for (int i = 0; i < bodies.size(); i++) {
            problems.addAll(bodyProblems(what + (jsonLines ? " line " + (i + 1) : " body"), schema, bodies.get(i)));
        }
        return problems;
    }

    private List<String> bodyProblems(String what, String schemaPointer, byte[] body) {
        JsonNode json;
        try {
            json = read(body);
        } catch (IOException e) {
            return List.of(what + " is not JSON: " + e.getMessage());
        }
        if (json == null || json.isMissingNode()) {
            return List.of(what + " is empty");
        }
        return validate(what, schemaPointer, json);
    }

    /**
     * {@code body} as the router reads it (decoded as UTF-8 text, then its own Jackson 2 mapper, {@link JobJson}: an
     * escaped lone surrogate passes, as RFC 8259's grammar allows, where a byte-reading parser refuses it), as the
     * validator's Jackson 3 tree; decimals are kept exact on the way.
     */
    private static JsonNode read(byte[] body) throws IOException {
        com.fasterxml.jackson.databind.JsonNode routers = JobJson.mapper().reader()
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .readTree(new String(body, StandardCharsets.UTF_8));
        if (routers == null || routers.isMissingNode()) {
            return null;
        }
        try {
            return JSON.readTree(JobJson.mapper().writeValueAsString(routers));
        } catch (JacksonException e) {
            throw new IOException(e.getOriginalMessage(), e);
        }
    }

    private List<String> validate(String what, String schemaPointer, JsonNode value) {
        Schema schema = schemas.computeIfAbsent(schemaPointer, p -> registry.getSchema(SchemaLocation.of(IRI + "#"
                + OpenApiPaths.fragment(p))));
        List<String> problems = new ArrayList<>();
        try {
            for (Error error : schema.validate(value)) {
                problems.add(what + ": " + error);
            }
        } catch (JacksonException e) {
            // the validator reads integer bounds as a long: a number beyond it (1e107) is no value the description
            // allows, so it counts as refused rather than as a crash of the judge
            problems.add(what + ": a value the validator cannot evaluate: " + e.getOriginalMessage());
        }
        return problems;
    }

    /** The pointer of the schema at {@code relative} under {@code owner}: its $ref's target when it is one. */
    private String schemaOf(ResolvedNode owner, String relative) {
        JsonNode schema = owner.node().at(relative);
        if (schema.isMissingNode()) {
            throw new IllegalStateException(owner.pointer() + relative + " has no schema");
        }
        JsonNode ref = schema.get("$ref");
        if (ref != null && schema.size() == 1 && ref.asString().startsWith("#")) {
            return ref.asString().substring(1);
        }
        return owner.pointer() + relative;
    }

    /** A node of the description, with the pointer it was found at (a $ref followed). */
    private record ResolvedNode(JsonNode node, String pointer) {
    }

    private ResolvedNode resolve(JsonNode node, String pointer) {
        JsonNode ref = node.get("$ref");
        if (ref == null) {
            return new ResolvedNode(node, pointer);
        }
        String target = ref.asString().substring(1);
        JsonNode resolved = document.at(target);
        if (resolved.isMissingNode()) {
            throw new IllegalStateException(pointer + ": $ref " + ref.asString() + " names nothing");
        }
        return resolve(resolved, target);
    }
}
