package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A client that keeps POSTing the requestId of a job still queued (a retry loop gone wrong, or polling by
 * resubmission) adds at most one copy of it to its queue per re-send interval: the marker records the re-send.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class ResubmissionCopiesTest extends LocalAwsProbeSetup {
    private static final int POSTS = 500;

    @Test
    void submit_shouldPutAtMostOneCopyOnTheQueue_when500ResubmissionsOfAQueuedJobArrive() {
        // given a job accepted and still queued (no worker consumes the queue here)
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi, again and again\"}";
        given().contentType("application/json").body(body).post("/v1/jobs").then().statusCode(202);

        // when the same request arrives 500 more times, one after another
        for (int i = 0; i < POSTS; i++) {
            given().contentType("application/json").body(body).post("/v1/jobs")
                    .then().statusCode(200).body("status", equalTo("queued"));
        }

        // then the first message and at most one copy are on the queue
        long messages = probe.drain(LocalAws.DEFAULT_TEXT_QUEUE).stream()
                .filter(m -> LocalAwsProbe.job(m).visibleRequestId().equals(id)).count();
        assertThat(messages).isBetween(1L, 2L);
        assertThat(probe.marker(probe.stored(id)).orElseThrow().resentAt()).isNotNull();
    }
}
