package io.gpupipe.localstack.apigateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The facade over real HTTP, with a function that records the payload 2.0 event and answers what a test says. */
class HttpApiFacadeTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicReference<JsonNode> lastEvent = new AtomicReference<>();
    private final AtomicInteger invocations = new AtomicInteger();
    private final Console console = new Console(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));
    private volatile LambdaFunction.Invocation answer = ok("{\"statusCode\":202,\"headers\":{\"Content-Type\":"
            + "\"application/json\",\"X-Custom\":\"a\"},\"multiValueHeaders\":{\"X-Custom\":[\"a\",\"b\"]},"
            + "\"cookies\":[\"s=1; Path=/\"],\"body\":\"{\\\"ok\\\":true}\",\"isBase64Encoded\":false}");
    private HttpApiFacade facade;

    private static LambdaFunction.Invocation ok(String output) {
        return new LambdaFunction.Invocation(true, false, output.getBytes(StandardCharsets.UTF_8));
    }

    private HttpApiFacade facade() throws Exception {
        facade = HttpApiFacade.start(0, HttpApiRoute.ROUTER, event -> {
            invocations.incrementAndGet();
            lastEvent.set(JobJson.mapper().readTree(event));
            return answer;
        }, console);
        return facade;
    }

    @AfterEach
    void stop() {
        if (facade != null) {
            facade.close();
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String pathAndQuery) {
        return URI.create("http://localhost:" + facade.port() + pathAndQuery);
    }

    @Test
    void post_shouldDeliverAPayloadV2Event_whenRouteMatches() throws Exception {
        // given
        facade();
        // when
        send(HttpRequest.newBuilder(uri("/v1/jobs?a=1&a=2&b=x%20y")).header("Content-Type", "application/json")
                .header("Cookie", "c1=v1; c2=v2").header("X-Multi", "one")
                .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"hi\"}")));
        // then
        JsonNode event = lastEvent.get();
        assertThat(event.path("version").asText()).isEqualTo("2.0");
        assertThat(event.path("routeKey").asText()).isEqualTo("POST /v1/jobs");
        assertThat(event.path("rawPath").asText()).isEqualTo("/v1/jobs");
        assertThat(event.path("rawQueryString").asText()).isEqualTo("a=1&a=2&b=x%20y");
        assertThat(event.path("queryStringParameters").path("a").asText()).isEqualTo("1,2");
        assertThat(event.path("queryStringParameters").path("b").asText()).isEqualTo("x y");
        assertThat(event.path("cookies")).extracting(JsonNode::asText).containsExactly("c1=v1", "c2=v2");
        assertThat(event.path("headers").path("content-type").asText()).isEqualTo("application/json");
        assertThat(event.path("headers").path("x-multi").asText()).isEqualTo("one");
        assertThat(event.path("headers").path("host").asText()).isEqualTo("localhost:" + facade.port());
        assertThat(event.path("headers").path("x-forwarded-proto").asText()).isEqualTo("http");
        assertThat(event.path("headers").has("cookie")).isFalse();
        assertThat(event.path("headers").fieldNames()).toIterable().allMatch(n -> n.equals(n.toLowerCase()));
        assertThat(event.path("requestContext").path("http").path("method").asText()).isEqualTo("POST");
        assertThat(event.path("requestContext").path("http").path("path").asText()).isEqualTo("/v1/jobs");
        assertThat(event.path("requestContext").path("http").path("sourceIp").asText()).isEqualTo("127.0.0.1");
        assertThat(event.path("requestContext").path("routeKey").asText()).isEqualTo("POST /v1/jobs");
        assertThat(event.path("requestContext").path("stage").asText()).isEqualTo("$default");
        assertThat(event.path("requestContext").path("timeEpoch").asLong()).isPositive();
        assertThat(event.path("body").asText()).isEqualTo("{\"prompt\":\"hi\"}");
        assertThat(event.path("isBase64Encoded").asBoolean()).isFalse();
    }

    @Test
    void get_shouldPassThePathParameter_whenRouteHasOne() throws Exception {
        // given
        facade();
        // when
        send(HttpRequest.newBuilder(uri("/v1/jobs/abc-123")).GET());
        // then
        JsonNode event = lastEvent.get();
        assertThat(event.path("routeKey").asText()).isEqualTo("GET /v1/jobs/{id}");
        assertThat(event.path("pathParameters").path("id").asText()).isEqualTo("abc-123");
        assertThat(event.has("body")).isFalse();
    }

    @Test
    void post_shouldBase64EncodeTheBody_whenContentIsBinary() throws Exception {
        // given
        facade();
        byte[] binary = {0, (byte) 0xff, 1, 2};
        // when
        send(HttpRequest.newBuilder(uri("/infer")).header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(binary)));
        // then
        assertThat(lastEvent.get().path("isBase64Encoded").asBoolean()).isTrue();
        assertThat(lastEvent.get().path("body").asText()).isEqualTo("AP8BAg==");
    }

    @Test
    void response_shouldCarryStatusHeadersCookiesAndBody_whenFunctionAnswersAV2Response() throws Exception {
        // given
        facade();
        // when
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/jobs"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        // then
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).isEqualTo("{\"ok\":true}");
        assertThat(response.headers().allValues("x-custom")).containsExactly("a", "b");
        assertThat(response.headers().firstValue("set-cookie")).hasValue("s=1; Path=/");
        assertThat(response.headers().firstValue("apigw-requestid")).isPresent();
    }

    @Test
    void response_shouldDecodeBase64_whenFunctionSaysSo() throws Exception {
        // given
        answer = ok("{\"statusCode\":200,\"body\":\"aGVsbG8=\",\"isBase64Encoded\":true}");
        facade();
        // when
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/jobs/x")).GET());
        // then
        assertThat(response.body()).isEqualTo("hello");
    }

    @Test
    void response_shouldBeA200Json_whenFunctionReturnsJsonWithoutStatusCode() throws Exception {
        // given
        answer = ok("{\"hello\":\"world\"}");
        facade();
        // when
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/jobs/x")).GET());
        // then
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"hello\":\"world\"}");
    }

    @Test
    void request_shouldGetApiGatewaysNotFound_whenNoRouteMatches() throws Exception {
        // given
        facade();
        // when
        HttpResponse<String> wrongPath = send(HttpRequest.newBuilder(uri("/v2/jobs")).GET());
        HttpResponse<String> wrongMethod = send(HttpRequest.newBuilder(uri("/v1/jobs")).GET());
        HttpResponse<String> emptyId = send(HttpRequest.newBuilder(uri("/v1/jobs/")).GET());
        // then
        assertThat(wrongPath.statusCode()).isEqualTo(404);
        assertThat(wrongPath.body()).isEqualTo("{\"message\":\"Not Found\"}");
        assertThat(wrongMethod.statusCode()).isEqualTo(404);
        assertThat(emptyId.statusCode()).isEqualTo(404);
        assertThat(invocations).hasValue(0);
    }

    @Test
    void request_shouldGetInternalServerError_whenFunctionFails() throws Exception {
        // given
        answer = new LambdaFunction.Invocation(false, false, "{\"errorMessage\":\"boom\"}".getBytes());
        facade();
        // when
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/jobs/x")).GET());
        // then
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo("{\"message\":\"Internal Server Error\"}");
    }

    @Test
    void request_shouldGetServiceUnavailable_whenFunctionTimesOut() throws Exception {
        // given
        answer = new LambdaFunction.Invocation(false, true, new byte[0]);
        facade();
        // when
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/jobs/x")).GET());
        // then
        assertThat(response.statusCode()).isEqualTo(503);
    }

    @Test
    void request_shouldGetPayloadTooLarge_whenBodyIsOverTenMegabytes() throws Exception {
        // given
        facade();
        // when
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/v1/jobs")).POST(
                HttpRequest.BodyPublishers.ofByteArray(new byte[HttpApiFacade.MAX_BODY_BYTES + 1])));
        // then
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(invocations).hasValue(0);
    }
}
