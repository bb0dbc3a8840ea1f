package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class CancelJobTest extends LocalAwsProbeSetup {
    @Test
    void cancel_shouldRewriteMarkerAsCancelledAndAnswer202_whenJobIsQueued() {
        // given
        String id = submit();
        Instant submittedAt = probe.marker(probe.stored(id)).orElseThrow().submittedAt();

        // when
        given().delete("/v1/jobs/" + id)
                .then().statusCode(202).contentType("application/json")
                .body("requestId", equalTo(id)).body("status", equalTo("cancelled")).body("tier", equalTo("small"));

        // then
        JobState marker = probe.marker(probe.stored(id)).orElseThrow();
        assertThat(marker.status()).isEqualTo(JobStatus.CANCELLED);
        assertThat(marker.submittedAt()).isEqualTo(submittedAt);
        assertThat(marker.updatedAt()).isAfterOrEqualTo(submittedAt);
        given().get("/v1/jobs/" + id).then().statusCode(200).body("status", equalTo("cancelled"));
    }

    @Test
    void cancel_shouldAnswer200AndChangeNothing_whenJobAlreadyCancelled() {
        // given
        String id = submit();
        given().delete("/v1/jobs/" + id).then().statusCode(202);
        String cancelled = probe.object(JobLayout.markerKey(probe.stored(id))).orElseThrow();

        // when, then
        given().delete("/v1/jobs/" + id.toUpperCase())
                .then().statusCode(200).body("requestId", equalTo(id)).body("status", equalTo("cancelled"));
        assertThat(probe.object(JobLayout.markerKey(probe.stored(id)))).contains(cancelled);
    }

    @Test
    void cancel_shouldAnswer409AndKeepMarker_whenJobIsRunning() {
        // given a worker has started the job
        String id = submit();
        JobState running = probe.marker(probe.stored(id)).orElseThrow().running("arn:aws:ecs:us-east-1:1:task/c/t", Instant.now());
        probe.put(JobLayout.markerKey(probe.stored(id)), JobJson.write(running));

        // when
        given().delete("/v1/jobs/" + id)
                .then().statusCode(409).contentType("application/json")
                .body("requestId", equalTo(id))
                .body("errors[0].code", equalTo(ApiErrorCodes.NOT_CANCELLABLE));

        // then
        assertThat(probe.marker(probe.stored(id)).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void cancel_shouldAnswer409_whenJobHasFinishedEvenIfMarkerStillReadsQueued() {
        // given a result written without the marker having moved on
        String id = submit();
        InferenceJob job = JobJson.read("{\"requestId\":\"" + id + "\",\"task\":\"generate\",\"prompt\":\"Hi\"}",
                InferenceJob.class)
                .withKey(JobKey.submitted(aws.ownerIds().of(CallerIdentity.ANONYMOUS), id));
        probe.put(JobLayout.resultKey(probe.stored(id)), JobJson.write(JobResult.failed(job,
                JobResult.JobError.of(ErrorCodes.MODEL_ERROR, "boom"),
                new JobResult.Provenance(Tier.of("small"), "m", "1", "t", 3, 1L, 1L), Instant.now())));

        // when, then
        given().delete("/v1/jobs/" + id).then().statusCode(409).body("errors[0].message",
                equalTo("job " + id + " is failed and can no longer be cancelled"));
        assertThat(probe.marker(probe.stored(id)).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
    }

    @Test
    void cancel_shouldAnswer404_whenJobUnknown() {
        given().delete("/v1/jobs/" + UUID.randomUUID())
                .then().statusCode(404).body("errors[0].code", equalTo(ApiErrorCodes.NOT_FOUND));
    }

    @Test
    void cancel_shouldAnswer400_whenIdIsMalformed() {
        given().delete("/v1/jobs/not-a-uuid")
                .then().statusCode(400).body("errors[0].field", equalTo("requestId"));
    }

    private static String submit() {
        return given().contentType("application/json").body("{\"prompt\":\"Cancel me\"}").post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo(Tier.of("small").wireName())).extract().path("requestId");
    }
}
