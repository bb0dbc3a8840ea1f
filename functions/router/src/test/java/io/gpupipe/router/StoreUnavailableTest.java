package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The configured bucket does not exist: S3 answers NoSuchBucket to everything; clients get a retryable 503. */
@QuarkusTest
@TestProfile(StoreUnavailableTest.MissingBucket.class)
@WithTestResource(LocalAwsTestResource.class)
class StoreUnavailableTest {
    @InjectLocalAws
    LocalAws aws;

    /** Points the router at a bucket that was never created. */
    public static class MissingBucket implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.router.bucket", "gpupipe-no-such-bucket");
        }
    }

    @Test
    void submit_shouldAnswer503AndEnqueueNothing_whenTheMarkerCannotBeWritten() {
        given().contentType("application/json").body("{\"prompt\":\"Hi\"}").post("/v1/jobs")
                .then().statusCode(503).contentType("application/json").header("Retry-After", equalTo("1"))
                .body("retryable", equalTo(true)).body("errors[0].code", equalTo(ApiErrorCodes.UNAVAILABLE));
        try (LocalAwsProbe probe = new LocalAwsProbe(aws)) {
            assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        }
    }

    @Test
    void status_shouldAnswer503NotUnknown_whenTheBucketCannotBeRead() {
        given().get("/v1/jobs/" + UUID.randomUUID()).then().statusCode(503)
                .body("errors[0].code", equalTo(ApiErrorCodes.UNAVAILABLE));
        given().delete("/v1/jobs/" + UUID.randomUUID()).then().statusCode(503);
    }
}
