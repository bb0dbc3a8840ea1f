package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A marker left {@code queued} with nothing on a queue (the Lambda died between marker and send, or the send failed
 * and so did the take-back): the client's retry of the same requestId must put the job on the queue.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class StuckQueuedJobTest extends LocalAwsProbeSetup {
    private static final Instant EARLIER = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void submit_shouldEnqueueTheJob_whenResubmittedMarkerStillReadsQueuedWithNoResult() {
        // given: the marker an earlier invocation wrote before it died, and no message anywhere
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";
        probe.put(JobLayout.markerKey(probe.stored(id)), JobJson.write(JobState.queued(job(body), Tier.of("small"), EARLIER)));

        // when
        given().contentType("application/json").body(body).post("/v1/jobs")
                .then().statusCode(200).body("status", equalTo("queued")).body("tier", equalTo("small"));

        // then: on the queue, carrying the original submission time (its TTL counts from there)
        InferenceJob sent = LocalAwsProbe.job(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE).get(0));
        assertThat(sent.visibleRequestId()).isEqualTo(id);
        assertThat(sent.submittedAt()).isEqualTo(EARLIER);
        assertThat(probe.marker(probe.stored(id)).orElseThrow().submittedAt()).isEqualTo(EARLIER);
    }

    @Test
    void submit_shouldEnqueueNothing_whenResubmittedJobAlreadyHasAResult() {
        // given
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";
        InferenceJob job = job(body);
        probe.put(JobLayout.markerKey(probe.stored(id)), JobJson.write(JobState.queued(job, Tier.of("small"), EARLIER)));
        probe.put(JobLayout.resultKey(probe.stored(id)), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.text("Hello", JobResult.Usage.of(1, 1), "stop"),
                new JobResult.Provenance(Tier.of("small"), "m", "1", "t", 1, 1L, 1L), EARLIER)));

        // when
        given().contentType("application/json").body(body).post("/v1/jobs")
                .then().statusCode(200).body("status", equalTo("succeeded"));

        // then
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).isEmpty();
    }

    private InferenceJob job(String body) {
        JobRequestParser.Outcome parsed = new JobRequestParser().parse(body, JobRequestParser.Source.API);
        return ((JobRequestParser.Outcome.Valid) parsed).job().withSubmittedAt(EARLIER)
                .submittedBy(aws.ownerIds().of(CallerIdentity.ANONYMOUS));
    }
}
