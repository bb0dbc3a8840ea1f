package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.worker.standin.VllmStandInResource;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.RecordingJobEvents;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The running worker app (openai backend against the vLLM stand-in, real SQS/S3 wire protocols) applying the
 * per-message rules. Shares its Quarkus app and resources with {@link WorkerFailureTest}.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalAwsTestResource.class, initArgs = {
    @ResourceArg(name = "small-visibility-seconds", value = "3"),
    @ResourceArg(name = "large-visibility-seconds", value = "3"),
    @ResourceArg(name = "max-receive-count", value = "3")})
@QuarkusTestResource(value = VllmStandInResource.class, initArgs = {
    @ResourceArg(name = "max-sequences", value = "8"),
    @ResourceArg(name = "api-key", value = "test-key"),
    @ResourceArg(name = "scheduling-policy", value = "priority"),
    @ResourceArg(name = "max-model-len", value = "1024")})
class WorkerPipelineTest extends WorkerAppTest {
    static final Duration RESULT_TIMEOUT = Duration.ofSeconds(20);
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));

    @Inject
    RecordingJobEvents events;

    @Test
    void health_shouldBeReadyAndLive_afterTheWarmUpInference() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks[0].data.phase", equalTo("READY"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        assertThat(standIn.completionsWith("Hello")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void readiness_shouldReportTheWindowAndTheJobsSettled_whenAJobIsDone() {
        // given
        Integer before = given().get("/q/health/ready").then().statusCode(200).extract()
                .path("checks[0].data.jobsSettled");
        assertThat(before).as("jobsSettled in the readiness data").isNotNull();
        String id = LocalPipeline.newRequestId();
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "Count me " + id, j -> j.put("maxTokens", 8)));
        // when
        pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then the readiness answer carries what the web console shows: the window, and a count that moved on
        await("jobsSettled past " + before).atMost(RESULT_TIMEOUT)
                .until(() -> given().get("/q/health/ready").then().extract()
                        .<Integer>path("checks[0].data.jobsSettled") > before);
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks[0].data.windowLimit", greaterThanOrEqualTo(1))
                .body("checks[0].data.inFlight", greaterThanOrEqualTo(0));
    }

    @Test
    void generate_shouldWriteSucceededResultWithProvenance_andDeleteTheMessage() {
        // given a job the router accepted 2 s ago
        String id = LocalPipeline.newRequestId();
        String prompt = "Explain continuous batching " + id;
        Instant submittedAt = Instant.now().minusSeconds(2);
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, prompt, j -> j.put("maxTokens", 64)
                .put("temperature", 0.5).put("topP", 0.9).put("priority", 3)
                .put("submittedAt", submittedAt.toString()).put("callbackUrl", "https://example.com/hook")));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then the model server got the OpenAI completion request
        var request = standIn.lastCompletionRequest(id).orElseThrow();
        assertThat(request.path("model").asText()).isEqualTo("stand-in/tiny-llm");
        assertThat(request.path("prompt").asText()).isEqualTo(prompt);
        assertThat(request.path("max_tokens").asInt()).isEqualTo(64);
        assertThat(request.path("temperature").asDouble()).isEqualTo(0.5);
        assertThat(request.path("top_p").asDouble()).isEqualTo(0.9);
        assertThat(request.path("priority").asInt()).isEqualTo(3);
        // and the result says what ran where
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.task()).isEqualTo(Task.GENERATE);
        assertThat(result.result().text()).isNotBlank();
        assertThat(result.result().usage().promptTokens()).isEqualTo(prompt.split(" ").length + 1);
        assertThat(result.result().usage().completionTokens()).isPositive();
        assertThat(result.result().usage().totalTokens()).isEqualTo(result.result().usage().promptTokens()
                + result.result().usage().completionTokens());
        assertThat(result.result().finishReason()).isIn("stop", "length");
        assertThat(result.tier()).isEqualTo(Tier.of("small"));
        assertThat(result.model()).isEqualTo("stand-in/tiny-llm");
        assertThat(result.modelVersion()).isEqualTo("/models/stand-in/tiny-llm");
        assertThat(result.taskArn()).isEqualTo("arn:aws:ecs:us-east-1:000000000000:task/gpupipe/test");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.queueWaitMs()).isGreaterThanOrEqualTo(2000);
        assertThat(result.callbackUrl()).isEqualTo("https://example.com/hook");
        JobState marker = pipeline.marker(id).orElseThrow();
        assertThat(marker.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(marker.taskArn()).isEqualTo(result.taskArn());
        assertThat(marker.startedAt()).isNotNull();
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
        JobEvent event = await("event").atMost(RESULT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        assertThat(event.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
        assertThat(event.completionTokens()).isEqualTo(result.result().usage().completionTokens());
        assertThat(event.queueWaitMs()).isEqualTo(result.queueWaitMs());
    }

    @Test
    void generate_shouldFailPromptTooLongAtOnce_whenPromptPlusMaxTokensExceedTheServedContext() {
        // given the stand-in serves max_model_len 1024; 3 words = 4 tokens, plus 1021 > 1024
        String id = LocalPipeline.newRequestId();
        String prompt = "long answer " + id;
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, prompt, j -> j.put("maxTokens", 1021)));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then one call, no retry, and the client is told why
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo("prompt_too_long");
        assertThat(result.error().message()).contains("maximum context length is 1024 tokens");
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    @Test
    void directSubmission_shouldMeasureQueueWaitFromSentTimestamp_whenJobHasNoSubmittedAt() {
        // given a job sent straight to the queue (no router, no submittedAt), delayed 2 s by SQS
        String id = LocalPipeline.newRequestId();
        pipeline.sqs().sendMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE)).delaySeconds(2)
                .messageBody(LocalPipeline.job(id, "direct " + id)));
        // when: a producer's job, stored under the id derived from the queue owner and its requestId
        JobResult result = pipeline.awaitResult(JobIds.stored(Owner.QUEUE, id), RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(result.queueWaitMs()).isGreaterThanOrEqualTo(1900);
        assertThat(result.owner()).isEqualTo(Owner.QUEUE.value());
        assertThat(result.clientRequestId()).isEqualTo(id);
    }

    @Test
    void unsealedMessageNamingACallersOwner_shouldRunAsTheQueueOwnersJob_andLeaveTheCallersJobUntouched() {
        // given: caller A's queued job (its marker, as the router wrote it) and a producer's message naming A's
        // owner, A's client id and A's stored id, with another prompt
        String clientId = LocalPipeline.newRequestId();
        String stored = JobIds.stored(ALICE, clientId);
        String own = LocalPipeline.job(stored, "A's own " + clientId, j -> j.put("owner", ALICE.value())
                .put("clientRequestId", clientId));
        JobState marker = JobState.queued(JobJson.read(own, InferenceJob.class), Tier.of("small"),
                Instant.parse("2026-12-04T07:00:00Z"));
        pipeline.putMarker(marker);
        String planted = LocalPipeline.job(stored, "planted " + clientId, j -> j.put("owner", ALICE.value())
                .put("clientRequestId", clientId));
        // when
        pipeline.sendUnsealed(LocalAws.DEFAULT_TEXT_QUEUE, planted);
        JobResult result = pipeline.awaitResult(JobIds.stored(Owner.QUEUE, stored), RESULT_TIMEOUT);
        // then: the planted job ran as the queue owner's, under its own id; A's job is as it was
        assertThat(result.owner()).isEqualTo(Owner.QUEUE.value());
        assertThat(result.clientRequestId()).isEqualTo(stored);
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(pipeline.marker(stored)).contains(marker);
        assertThat(pipeline.result(stored)).isEmpty();
    }

    @Test
    void messageOfAnotherRequestUnderAHeldId_shouldReachTheDlqWithTheReason_andChangeNothing() {
        // given: a producer's job under way (its marker), and a second producer message of the same requestId with
        // another prompt
        String id = LocalPipeline.newRequestId();
        String stored = JobIds.stored(Owner.QUEUE, id);
        JobState marker = JobState.queued(JobJson.read(LocalPipeline.job(stored, "first " + id, j -> j.put("owner",
                Owner.QUEUE.value()).put("clientRequestId", id)), InferenceJob.class), Tier.of("small"),
                Instant.parse("2026-12-04T07:00:00Z"));
        pipeline.putMarker(marker);
        String second = LocalPipeline.job(id, "second " + id);
        // when
        pipeline.sendUnsealed(LocalAws.DEFAULT_TEXT_QUEUE, second);
        List<Message> deadLetters = pipeline.awaitDeadLetters(id, RESULT_TIMEOUT);
        // then: refused with the reason, without a model call, a result or a marker change
        assertThat(deadLetters).singleElement().satisfies(dead -> {
            assertThat(dead.body()).isEqualTo(second);
            assertThat(dead.messageAttributes().get(MessageAttributes.ERROR_REASON).stringValue())
                    .startsWith("invalid_request").contains("held by another request");
        });
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(standIn.completionsWith("second " + id)).isZero();
        assertThat(pipeline.result(stored)).isEmpty();
        assertThat(pipeline.marker(stored)).contains(marker);
    }

    @Test
    void malformed_shouldWriteFailedResultWithEveryFieldError_andMoveTheRawBodyToTheDlq() {
        // given a body with a valid requestId and two bad fields
        String id = LocalPipeline.newRequestId();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"\",\"maxTokens\":99999,"
                + "\"callbackUrl\":\"https://example.com/cb\",\"task\":\"generate\"}";
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, body);
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        List<Message> deadLetters = pipeline.awaitDeadLetters(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(result.error().fieldErrors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("prompt", "maxTokens");
        assertThat(result.callbackUrl()).isEqualTo("https://example.com/cb");
        assertThat(result.task()).isEqualTo(Task.GENERATE);
        assertThat(deadLetters).hasSize(1);
        Message dead = deadLetters.get(0);
        assertThat(dead.body()).isEqualTo(body);
        assertThat(dead.messageAttributes().get(MessageAttributes.ERROR_REASON).stringValue())
                .startsWith("invalid_request").contains("prompt").contains("maxTokens");
        assertThat(dead.messageAttributes().get(MessageAttributes.ORIGINAL_QUEUE).stringValue())
                .isEqualTo(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE));
        assertThat(standIn.completionsWith(id)).isZero();
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    @Test
    void speechJobOnTheTextTiersQueue_shouldFailNamingTaskAndTier_withoutCallingTheModel_andReachTheDlq() {
        // given a speech job sent straight to the small (text) tier's queue, whose model server has no speech API
        String id = LocalPipeline.newRequestId();
        String body = LocalPipeline.job(id, "Wrong queue " + id, j -> j.put("task", "speech")
                .put("callbackUrl", "https://example.com/cb"));
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, body);
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        List<Message> deadLetters = pipeline.awaitDeadLetters(id, RESULT_TIMEOUT);
        // then the client learns why, as for any bad message: a failed result and the raw body in the DLQ
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
        assertThat(result.error().message()).contains("tier small cannot serve speech jobs")
                .contains("tiers serving speech: speech");
        assertThat(result.error().fieldErrors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("task");
            assertThat(e.code()).isEqualTo("not_served");
        });
        assertThat(result.task()).isEqualTo(Task.SPEECH);
        assertThat(result.callbackUrl()).isEqualTo("https://example.com/cb");
        assertThat(standIn.speechWith(id)).isZero();
        assertThat(pipeline.audio(id)).isEmpty();
        assertThat(deadLetters).singleElement().satisfies(dead -> {
            assertThat(dead.body()).isEqualTo(body);
            assertThat(dead.messageAttributes().get(MessageAttributes.ERROR_REASON).stringValue())
                    .startsWith("invalid_request").contains("task not_served")
                    .contains("tier small cannot serve speech jobs");
        });
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    @Test
    void malformed_shouldStillReachTheDlq_whenNoRequestIdCanBeRead() {
        // given
        String marker = "garbage-" + LocalPipeline.newRequestId();
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, "this is not json " + marker);
        // when
        List<Message> deadLetters = pipeline.awaitDeadLetters(marker, RESULT_TIMEOUT);
        // then
        assertThat(deadLetters).hasSize(1);
        assertThat(deadLetters.get(0).messageAttributes().get(MessageAttributes.ERROR_REASON).stringValue())
                .contains("body").contains("invalid_format");
    }

    @Test
    void duplicateDelivery_shouldRunInferenceOnce_andWriteOneResult() {
        // given the same job sent twice; its generation takes 1 s so both deliveries overlap
        String id = LocalPipeline.newRequestId();
        String prompt = "duplicate " + id;
        standIn.slow(prompt, Duration.ofSeconds(1));
        String body = LocalPipeline.job(id, prompt);
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, body);
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, body);
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // (the second delivery comes back after the model timeout, 20 s here)
        await("both deliveries handled").atMost(Duration.ofSeconds(40)).until(() -> events.of(id).size() == 2);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
        assertThat(events.of(id)).extracting(JobEvent::outcome)
                .containsExactlyInAnyOrder(JobOutcome.SUCCEEDED, JobOutcome.DUPLICATE);
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    @Test
    void cancelled_shouldBeDeletedWithoutReachingTheModel() {
        // given a job the client cancelled while it was queued
        String id = LocalPipeline.newRequestId();
        InferenceJob job = new InferenceJob(id, Task.GENERATE, "cancel me " + id, 16, 0.0, 1.0, null, null, null,
                null, null, Instant.now());
        pipeline.putMarker(JobState.queued(job, Tier.of("small"), Instant.now()).cancelled(Instant.now()));
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, job.prompt()));
        // when
        JobEvent event = await("event").atMost(RESULT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        // then
        assertThat(event.outcome()).isEqualTo(JobOutcome.CANCELLED);
        assertThat(standIn.completionsWith(id)).isZero();
        assertThat(pipeline.result(id)).isEmpty();
        assertThat(pipeline.marker(id).orElseThrow().status()).isEqualTo(JobStatus.CANCELLED);
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    @Test
    void expired_shouldFailWithExpired_withoutReachingTheModel() {
        // given a job with a 60 s TTL submitted 2 minutes ago
        String id = LocalPipeline.newRequestId();
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "too late " + id, j -> j.put("ttlSeconds", 60)
                .put("submittedAt", Instant.now().minusSeconds(120).toString())));
        // when
        JobResult result = pipeline.awaitResult(id, RESULT_TIMEOUT);
        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.EXPIRED);
        assertThat(result.error().message()).contains("ttlSeconds 60");
        assertThat(result.queueWaitMs()).isGreaterThanOrEqualTo(120_000);
        assertThat(standIn.completionsWith(id)).isZero();
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    @Test
    void existingResult_shouldDeleteTheMessage_withoutInferenceOrOverwrite() {
        // given a job whose result is already stored (an earlier delivery finished it)
        String id = LocalPipeline.newRequestId();
        InferenceJob job = new InferenceJob(id, Task.GENERATE, "done before " + id, 16, 0.0, 1.0, null, null, null,
                null, null, null);
        JobResult earlier = JobResult.succeeded(job, JobResult.Output.text("earlier text", JobResult.Usage.of(3, 2),
                "stop"), new JobResult.Provenance(Tier.of("small"), "m", "v", "other-task", 1, 5L, 9L), Instant.now());
        pipeline.putResult(earlier);
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, job.prompt()));
        // when
        JobEvent event = await("event").atMost(RESULT_TIMEOUT)
                .until(() -> events.of(id).stream().findFirst(), Optional::isPresent).orElseThrow();
        // then
        assertThat(event.outcome()).isEqualTo(JobOutcome.DUPLICATE);
        assertThat(standIn.completionsWith(id)).isZero();
        assertThat(pipeline.result(id).orElseThrow().result().text()).isEqualTo("earlier text");
        awaitQueueEmpty(LocalAws.DEFAULT_TEXT_QUEUE);
    }

    void awaitQueueEmpty(String queueName) {
        await(queueName + " to be empty").atMost(RESULT_TIMEOUT).until(() -> {
            var attributes = pipeline.sqs().getQueueAttributes(b -> b.queueUrl(aws.queueUrl(queueName))
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                            QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
            return "0".equals(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    && "0".equals(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
        });
    }
}
