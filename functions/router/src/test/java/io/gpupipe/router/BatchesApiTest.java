package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;

import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchPlan;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.ChunkPlan;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/** The batch routes over the Lambda HTTP path: status codes and bodies a client sees. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class BatchesApiTest extends LocalAwsProbeSetup {

    @Test
    void batch_shouldBeCreatedReadAndCancelled_overTheApi() throws Exception {
        // given: an input file uploaded with the presigned PUT the API hands out
        JsonPath upload = given().contentType("application/json").body("{\"bytes\":3}").post("/v1/batches/uploads").then().statusCode(200)
                .body("method", equalTo("PUT")).extract().jsonPath();
        HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                upload.getString("upload_url"))).PUT(HttpRequest.BodyPublishers.ofString("{}\n")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).isEqualTo(200);

        // when
        String id = given().contentType("application/json").body("{\"input_file_id\":\""
                        + upload.getString("input_file_id") + "\",\"endpoint\":\"/v1/chat/completions\","
                        + "\"completion_window\":\"24h\",\"metadata\":{\"description\":\"nightly eval job\"}}")
                .post("/v1/batches")
                .then().statusCode(200).body("object", equalTo("batch")).body("status", equalTo("validating"))
                .body("request_counts.total", equalTo(0)).body("metadata.description", equalTo("nightly eval job"))
                .extract().path("id");

        // then
        given().get("/v1/batches/" + id).then().statusCode(200).body("id", equalTo(id))
                .body("endpoint", equalTo("/v1/chat/completions"));
        given().post("/v1/batches/" + id + "/cancel").then().statusCode(200).body("status", equalTo("cancelling"));
        given().delete("/v1/batches/" + id).then().statusCode(200).body("status", equalTo("cancelling"));
        given().get("/v1/batches/" + BatchIds.newBatchId(UUID.randomUUID())).then().statusCode(404)
                .body("errors[0].field", equalTo("batch_id"));
        given().get("/v1/batches/not-a-batch").then().statusCode(400).body("errors[0].code",
                equalTo("invalid_format"));
    }

    @Test
    void retryAndFilePages_shouldAnswerOverTheApi_withJsonLinesAndConflictsAsJson() throws Exception {
        // given: a batch just created (validating: nothing planned, nothing ended)
        JsonPath upload = given().contentType("application/json").body("{\"bytes\":3}").post("/v1/batches/uploads").then().statusCode(200).extract().jsonPath();
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(upload.getString("upload_url")))
                .PUT(HttpRequest.BodyPublishers.ofString("{}\n")).build(), HttpResponse.BodyHandlers.ofString());
        String id = given().contentType("application/json").body("{\"input_file_id\":\""
                + upload.getString("input_file_id") + "\",\"endpoint\":\"/v1/completions\"}")
                .post("/v1/batches").then().statusCode(200).extract().path("id");

        // then: its files read as empty pages of JSON lines; it cannot be retried before it ends
        given().get("/v1/batches/" + id + "/output").then().statusCode(200)
                .contentType(BatchesResource.JSONL).header(BatchesResource.PAGES_HEADER, "0").body(equalTo(""));
        given().get("/v1/batches/" + id + "/errors?page=3").then().statusCode(400)
                .body("errors[0].field", equalTo("page")).body("errors[0].code", equalTo("out_of_range"));
        given().post("/v1/batches/" + id + "/retry").then().statusCode(409)
                .body("errors[0].field", equalTo("status")).body("errors[0].code", equalTo("not_ended"));
        String unknown = BatchIds.newBatchId(UUID.randomUUID());
        given().post("/v1/batches/" + unknown + "/retry").then().statusCode(404)
                .body("errors[0].code", equalTo(ApiErrorCodes.NOT_FOUND));
        given().get("/v1/batches/" + unknown + "/output").then().statusCode(404);
        given().post("/v1/batches/not-a-batch/retry").then().statusCode(400)
                .body("errors[0].code", equalTo("invalid_format"));
    }

    @Test
    void filePages_shouldLinkEachPageToTheNext_whileMoreFollow() {
        // given: a running batch of the API's anonymous caller, planned into two chunks, none submitted yet
        Owner anonymous = aws.ownerIds().of(CallerIdentity.ANONYMOUS);
        BatchState running = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(
                BatchLayout.inputKey(anonymous, UUID.randomUUID()), BatchEndpoint.COMPLETIONS,
                "24h", null, null), anonymous, Instant.now()).planned(new BatchPlan(2,
                List.of(new ChunkPlan(0, 1, 0, 10, 1, List.of()), new ChunkPlan(1, 2, 10, 20, 1, List.of()))),
                Instant.now());
        new S3BatchStore(probe.s3, null, aws.bucket()).create(running).orElseThrow();

        // then
        given().get("/v1/batches/" + running.id() + "/output").then().statusCode(200)
                .header(BatchesResource.PAGES_HEADER, "2").header("Link", "<?page=1>; rel=\"next\"")
                .body(equalTo(""));
        given().get("/v1/batches/" + running.id() + "/output?page=1").then().statusCode(200)
                .header("Link", nullValue());
    }

    @Test
    void create_shouldAnswer400NamingEveryBadField() {
        given().contentType("application/json").body("{\"input_file_id\":\"results/x.json\",\"endpoint\":"
                        + "\"/v1/moderations\",\"completion_window\":\"1h\"}")
                .post("/v1/batches")
                .then().statusCode(400)
                .body("errors.field", hasItems("input_file_id", "endpoint", "completion_window"));
        given().contentType("text/plain").body("x").post("/v1/batches").then().statusCode(415);
    }

    @Test
    void cancelJob_shouldAnswer404_whenTheIdIsALineOfABatch() {
        // given: a queued line of a batch (stored under the id its batch derives, in no caller's job namespace)
        BatchMember member = new BatchMember(BatchIds.newBatchId(UUID.randomUUID()), 0, 1, 1);
        InferenceJob job = new InferenceJob(member.requestId(), Task.GENERATE, "x", 1, 0, 1, null, null, null, null,
                null, Instant.now(), null, null, null, null, null, null, member);
        probe.s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(job.requestId())),
                RequestBody.fromString(JobJson.write(JobState.queued(job, Tier.of("small"), Instant.now()))));

        // when, then: a line is reached through its batch (DELETE /v1/batches/{id}), never as a job of its own
        given().delete("/v1/jobs/" + job.requestId()).then().statusCode(404)
                .body("errors[0].code", equalTo(ApiErrorCodes.NOT_FOUND));
        assertThat(probe.object(JobLayout.markerKey(job.requestId())).orElseThrow()).contains("\"queued\"");
    }
}
