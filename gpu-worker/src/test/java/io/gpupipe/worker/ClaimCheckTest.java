package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The worker's read side of the router's claim check: a pointer message runs the job stored in S3. Shares the app
 * and resources of {@link WorkerPipelineTest} (Quarkus test resources are global: a second declaration with other
 * arguments would start a second stand-in and race the first for the REST client's URL).
 */
@QuarkusTest
class ClaimCheckTest extends WorkerAppTest {
    @Test
    void process_shouldRunTheStoredJob_whenTheMessageIsAClaimCheck() {
        // given: the payload in S3 (a character SQS could not carry included), a pointer on the queue
        String id = LocalPipeline.newRequestId();
        String prompt = "Claim check " + id + " \uFFFF " + "\u6F22".repeat(1000);
        pipeline.s3().putObject(b -> b.bucket(aws.bucket()).key(JobLayout.payloadKey(id)),
                RequestBody.fromString(JobMessage.queueSafe(LocalPipeline.job(id, prompt))));
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, JobMessage.pointer(id));

        // when
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);

        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(standIn.lastCompletionRequest(id).orElseThrow().path("prompt").asText()).isEqualTo(prompt);
    }

    @Test
    void process_shouldFailTheJobAsMalformed_whenThePayloadIsMissing() {
        // given
        String id = LocalPipeline.newRequestId();

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, JobMessage.pointer(id));

        // then
        JobResult result = pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT);
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(standIn.lastCompletionRequest(id)).isEmpty();
    }
}
