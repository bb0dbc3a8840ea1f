package io.gpupipe.router;

import io.gpupipe.model.contract.GpupipeApiSpec;
import io.gpupipe.model.contract.GpupipeApiSpec.Exchange;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.http.Header;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Holds every request a router test sends through RestAssured, and its answer, to the API description
 * ({@link GpupipeApiSpec}): a test whose exchange the description does not allow fails with the problems, so the
 * description cannot drift from the router. Raw API Gateway events posted to the mock event server
 * ({@code /_lambda_}) are judged as the HTTP exchange they carry. Installed for every {@code @QuarkusTest} of the
 * module by {@link ApiConformanceCallback}.
 */
public final class ApiConformanceFilter implements Filter {
    /** Where Quarkus's mock event server takes raw Lambda events. */
    static final String LAMBDA_EVENTS_PATH = "/_lambda_";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Adds the filter to RestAssured's defaults unless it is there already. */
    static void install() {
        if (RestAssured.filters().stream().noneMatch(ApiConformanceFilter.class::isInstance)) {
            RestAssured.filters(new ApiConformanceFilter());
        }
    }

    static boolean installed() {
        return RestAssured.filters().stream().anyMatch(ApiConformanceFilter.class::isInstance);
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification expectations,
                           FilterContext context) {
        Response response = context.next(request, expectations);
        GpupipeApiSpec.get().assertConforms(exchange(request, response));
        return response;
    }

    /** The exchange a RestAssured request and its answer make (the carried one for a raw Lambda event). */
    static Exchange exchange(FilterableRequestSpecification request, Response response) {
        String path = URI.create(request.getURI()).getRawPath();
        byte[] body = bytes(request.getBody());
        if (LAMBDA_EVENTS_PATH.equals(path)) {
            return fromEvent(JSON.readTree(body), JSON.readTree(response.asByteArray()));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : response.getHeaders()) {
            headers.putIfAbsent(header.getName().toLowerCase(Locale.ROOT), header.getValue());
        }
        return new Exchange(request.getMethod(), path, request.getContentType(), body, response.statusCode(),
                headers, response.asByteArray());
    }

    /** The HTTP exchange of an API Gateway HTTP API (payload 2.0) event and the function's answer to it. */
    static Exchange fromEvent(JsonNode event, JsonNode answer) {
        Map<String, String> requestHeaders = lowerCase(event.path("headers"));
        Map<String, String> responseHeaders = lowerCase(answer.path("headers"));
        answer.path("multiValueHeaders").properties().forEach(h -> responseHeaders.putIfAbsent(
                h.getKey().toLowerCase(Locale.ROOT), h.getValue().path(0).asString()));
        return new Exchange(event.path("requestContext").path("http").path("method").asString(),
                event.path("rawPath").asString(), requestHeaders.get("content-type"), body(event),
                answer.path("statusCode").asInt(), responseHeaders, body(answer));
    }

    private static byte[] body(JsonNode message) {
        JsonNode body = message.get("body");
        if (body == null || body.isNull()) {
            return new byte[0];
        }
        return message.path("isBase64Encoded").asBoolean(false) ? Base64.getDecoder().decode(body.asString())
                : body.asString().getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, String> lowerCase(JsonNode headers) {
        Map<String, String> lowered = new LinkedHashMap<>();
        headers.properties().forEach(h -> lowered.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue().asString()));
        return lowered;
    }

    private static byte[] bytes(Object body) {
        if (body == null) {
            return new byte[0];
        }
        if (body instanceof byte[] raw) {
            return raw;
        }
        if (body instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("a request body of " + body.getClass() + " cannot be judged; send a "
                + "String or byte[]");
    }
}
