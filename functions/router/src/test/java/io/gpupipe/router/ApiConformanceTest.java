package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.contract.GpupipeApiSpec;
import io.gpupipe.model.contract.GpupipeApiSpec.Exchange;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.builder.ResponseBuilder;
import io.restassured.filter.Filter;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The API description judges the router's tests: {@link ApiConformanceFilter} is installed for every
 * {@code @QuarkusTest} here, and it fails a test whose answer has a field the description does not document, a
 * mis-typed field or a status it does not list (the router's real answers, altered on the way to the filter).
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class ApiConformanceTest extends LocalAwsProbeSetup {

    @Test
    void filter_shouldBeAmongRestAssuredsDefaults_forEveryRouterTest() {
        assertThat(ApiConformanceFilter.installed()).isTrue();
    }

    @Test
    void filter_shouldFailTheTest_whenTheAnswerHasAnUndocumentedField() {
        String id = submit();

        assertThatThrownBy(() -> given().filter(altering(body -> body.replaceFirst("\\{", "{\"eta\":3,")))
                .get("/v1/jobs/" + id)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("GET /v1/jobs/" + id).hasMessageContaining("eta");
    }

    @Test
    void filter_shouldFailTheTest_whenAnAnswersFieldIsMistyped() {
        String id = submit();

        assertThatThrownBy(() -> given().filter(altering(body -> body.replace("\"status\":\"queued\"",
                "\"status\":1"))).get("/v1/jobs/" + id)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("status");
    }

    @Test
    void filter_shouldFailTheTest_whenTheStatusIsNotDocumented() {
        Filter teapot = (request, expectations, context) -> new ResponseBuilder()
                .clone(context.next(request, expectations)).setStatusCode(418).build();

        assertThatThrownBy(() -> given().filter(teapot).get("/v1/jobs/" + submit()))
                .isInstanceOf(AssertionError.class).hasMessageContaining("status 418 is not documented");
    }

    @Test
    void judge_shouldPassTheRoutersRealAnswer_andFailItOnceAltered() {
        // given: a real exchange, recorded
        String id = submit();
        List<Exchange> recorded = new ArrayList<>();
        given().filter((request, expectations, context) -> {
            Response response = context.next(request, expectations);
            recorded.add(ApiConformanceFilter.exchange(request, response));
            return response;
        }).get("/v1/jobs/" + id).then().statusCode(200);
        Exchange real = recorded.get(0);

        // when, then
        assertThat(GpupipeApiSpec.get().problems(real)).isEmpty();
        Exchange withoutStatus = withBody(real, new String(real.responseBody(), StandardCharsets.UTF_8)
                .replace("\"status\":\"queued\",", ""));
        assertThat(GpupipeApiSpec.get().problems(withoutStatus)).singleElement().asString().contains("status");
    }

    private static String submit() {
        return given().contentType("application/json").body("{\"prompt\":\"Judge me\"}").post("/v1/jobs")
                .then().statusCode(202).extract().path("requestId");
    }

    /** A filter that alters the router's answer before the filters ahead of it (the judge) see it. */
    private static Filter altering(UnaryOperator<String> change) {
        return (request, expectations, context) -> {
            Response response = context.next(request, expectations);
            return new ResponseBuilder().clone(response).setBody(change.apply(response.asString())).build();
        };
    }

    private static Exchange withBody(Exchange exchange, String body) {
        Map<String, String> headers = new HashMap<>(exchange.responseHeaders());
        return new Exchange(exchange.method(), exchange.rawPath(), exchange.contentType(), exchange.requestBody(),
                exchange.status(), headers, body.getBytes(StandardCharsets.UTF_8));
    }
}
