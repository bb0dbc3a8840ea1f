package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.embedding.EncodingFormat;
import io.gpupipe.model.job.InferenceJob;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;

/** Embedding jobs over HTTP: routed to the embedding tier's queue whatever their size; bad fields answered 400. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SubmitEmbeddingTest extends LocalAwsProbeSetup {
    private static final String EMBED_QUEUE = TierCatalogue.bundled().get(Tier.of("embed")).queue();

    @Test
    void submit_shouldEnqueueToTheEmbeddingTier_withItsInputsIntact() {
        String id = UUID.randomUUID().toString();
        String longInput = "w".repeat(3_000); // a text job this long would go to large

        given().contentType("application/json")
                .body("{\"requestId\":\"" + id + "\",\"task\":\"embed\",\"input\":[\"a\",\"" + longInput + "\"],"
                        + "\"dimensions\":16,\"encodingFormat\":\"base64\"}")
                .post("/v1/jobs")
                .then().statusCode(202).body("tier", equalTo("embed")).body("status", equalTo("queued"));

        List<Message> sent = probe.drain(EMBED_QUEUE);
        assertThat(sent).hasSize(1);
        InferenceJob job = LocalAwsProbe.job(sent.get(0));
        assertThat(job.task()).isEqualTo(Task.EMBED);
        assertThat(job.input()).containsExactly("a", longInput);
        assertThat(job.dimensions()).isEqualTo(16);
        assertThat(job.encodingFormat()).isEqualTo(EncodingFormat.BASE64);
    }

    @Test
    void submit_shouldAnswer400NamingEveryBadEmbeddingField_andQueueNothing() {
        given().contentType("application/json")
                .body("{\"task\":\"embed\",\"input\":[\"ok\",7],\"dimensions\":0,\"encodingFormat\":\"hex\","
                        + "\"temperature\":0.2}")
                .post("/v1/jobs")
                .then().statusCode(400)
                .body("errors.field", hasItems("input[1]", "dimensions", "encodingFormat", "temperature"));
        given().contentType("application/json").body("{\"prompt\":\"p\",\"input\":\"a\"}").post("/v1/jobs")
                .then().statusCode(400).body("errors[0].field", equalTo("input"))
                .body("errors[0].code", equalTo("not_applicable"));

        assertThat(probe.drain(EMBED_QUEUE)).isEmpty();
    }
}
