package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobStatus;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The chaos soak's fault hook, configured as the soak configures it: every invocation dies after the marker. */
@QuarkusTest
@TestProfile(FaultHookTest.AlwaysDieAfterMarker.class)
@WithTestResource(LocalAwsTestResource.class)
class FaultHookTest extends LocalAwsProbeSetup {
    /** {@code GPUPIPE_ROUTER_FAULT_DIE_AFTER_MARKER_RATIO=1}. */
    public static class AlwaysDieAfterMarker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.router.fault.die-after-marker-ratio", "1");
        }
    }

    @Test
    void submit_shouldFailWith500AfterTheMarkerAndBeforeTheSend_whenTheHookFires() {
        // given
        String id = UUID.randomUUID().toString();

        // when
        given().contentType("application/json").body("{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}")
                .post("/v1/jobs")
                .then().statusCode(500).body("errors[0].field", equalTo("service"));

        // then: exactly the state a Lambda dying there leaves behind
        assertThat(probe.marker(probe.stored(id)).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
    }
}
