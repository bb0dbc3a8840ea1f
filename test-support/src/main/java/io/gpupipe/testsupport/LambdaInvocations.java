package io.gpupipe.testsupport;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Invoking a Quarkus Lambda function under test, with the event samples its module keeps for sam local invoke. */
public final class LambdaInvocations {
    private LambdaInvocations() {
    }

    /** Posts {@code event} to the mock Lambda event server a Quarkus test starts; the handler's answer, as JSON. */
    public static JsonNode invoke(String event) {
        return answer(request(event).when().post());
    }

    /**
     * Posts an API Gateway event to an HTTP function's mock event server, at the path where
     * {@code quarkus-amazon-lambda-http} takes a raw event (elsewhere a post is an HTTP request).
     */
    public static JsonNode invokeHttp(String event) {
        return answer(request(event).when().post("/_lambda_"));
    }

    /** The events/ sample {@code name}: the very file {@code sam local invoke -e} takes (tests run in the module). */
    public static String sample(String name) {
        try {
            return Files.readString(Path.of("events", name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RequestSpecification request(String event) {
        return given().contentType("application/json").accept("application/json").body(event);
    }

    private static JsonNode answer(Response response) {
        return JobJson.read(response.then().statusCode(200).extract().asString(), JsonNode.class);
    }
}
