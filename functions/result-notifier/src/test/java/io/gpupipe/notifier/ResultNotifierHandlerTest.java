package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.RecordingJsonLines;
import io.gpupipe.adapters.aws.S3JobSlots;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.jobs.port.SlotHolder;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.InjectSnsStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobKey;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.notifier.domain.CallbackRedelivery;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Posts the events/ samples through the mock Lambda event server to the real handler, which reads real S3
 * (S3Proxy), publishes to the SNS stand-in and calls back a webhook receiver on loopback.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
class ResultNotifierHandlerTest {
    static final String SUCCESS_TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-results-succeeded";
    static final String ERROR_TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-results-failed";
    static final String SECRET = "test-callback-secret";
    static final String A = "550e8400-e29b-41d4-a716-446655440000";
    static final String B = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    static final String C = "1b4e28ba-2fa1-41d2-883f-0016d3cca427";
    static final String E = "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
    static final String G = "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a";
    static final String H = "4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8";
    static final String I = "5f6a7b8c-9d0e-4f1a-b2c3-d4e5f6a7b8c9";
    static final String J = "6a7b8c9d-0e1f-4a2b-83c4-e5f6a7b8c9d0";
    static final Instant DONE = Instant.parse("2026-11-29T12:00:05Z");

    static CallbackReceiver receiver;

    @InjectLocalAws
    LocalAws aws;

    @InjectSnsStandIn
    SnsStandIn sns;

    @Inject
    RecordingJsonLines lines;

    @BeforeAll
    static void startReceiver() throws IOException {
        receiver = new CallbackReceiver();
    }

    @AfterAll
    static void stopReceiver() {
        receiver.close();
    }

    @BeforeEach
    void reset() {
        sns.reset();
        receiver.reset();
        lines.clear();
        forgetDeliveries(aws);
    }

    @Test
    void notify_shouldRedeliverTheCallbackLaterWithoutRepublishing_whenReceiverIsDownForAWhile() {
        // given: the receiver is down for the first two attempts
        putResult(succeeded(A, receiver.url("/hooks/down")));
        receiver.script("/hooks/down", 503, 503);

        // when: the result is notified
        JsonNode first = invoke(sample("s3-result-succeeded.json"));

        // then: its callback is handed to the callback queue, nothing sent within the result's invocation
        assertThat(first.at("/items/0/callback").asText()).isEqualTo("QUEUED");
        assertThat(receiver.received()).isEmpty();

        // when: the queue delivers its message to the notifier, one attempt each, until the receiver is back
        List<String> tries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            tries.add(invoke(sqsEvent(receiveRedelivery(aws, A).body())).at("/items/0/callback").asText());
        }

        // then: the callback arrives on the third, and the SNS event is not published again
        assertThat(tries).containsExactly("FAILED", "FAILED", "DELIVERED");
        assertThat(receiver.received("/hooks/down")).hasSize(3);
        assertThat(sns.published()).hasSize(1);
        // and every try is the same event to the receiver: the same webhook-id
        assertThat(receiver.received("/hooks/down")).extracting(CallbackReceiver.Received::webhookId)
                .containsOnly(CallbackSignature.messageId(aws.bucket(), A));
    }

    @Test
    void notify_shouldRecordUndeliverable_whenRedeliveriesRunPastTheDeadline() {
        // given: a redelivery whose first failure was 25 hours ago, and a receiver still down
        putResult(succeeded(A, receiver.url("/hooks/gone")));
        receiver.script("/hooks/gone", 503, 503, 503);
        String body = JobJson.write(new CallbackRedelivery.Message("gpupipe-results", "results/" + A + ".json", A, 90,
                Instant.now().minus(Duration.ofHours(25))));

        // when
        invoke(sqsEvent(body));

        // then: recorded where an operator sees it, with an ERROR line; nothing re-queued
        try (S3Client s3 = aws.newS3Client()) {
            assertThat(s3.getObjectAsBytes(b -> b.bucket(aws.bucket())
                    .key(JobLayout.notificationKey(A, "undeliverable"))).asUtf8String()).contains("/hooks/gone");
        }
        assertThat(lines.lines()).anySatisfy(l -> assertThat(l).contains("callback-undeliverable")
                .contains("\"level\":\"ERROR\""));
        try (SqsClient sqs = aws.newSqsClient()) {
            assertThat(sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE))
                    .waitTimeSeconds(1)).messages()).isEmpty();
        }
    }

    @Test
    void notify_shouldQueueCallbacksInTheOwnersMessageGroup_whenTheReceiverIsDown() {
        // given: a caller's result whose receiver is down
        Owner owner = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
                UUID.randomUUID().toString()));
        JobResult result = succeeded(UUID.randomUUID().toString(), receiver.url("/hooks/owned-down"), owner);
        putResult(result);
        receiver.script("/hooks/owned-down", 503, 503, 503, 503);
        String event = sample("s3-result-succeeded.json").replace("results/" + A + ".json",
                JobLayout.resultKey(result.requestId()));

        // when: the result is notified, and its queued callback is tried again from the queue
        invoke(event);
        Message queued = receiveRedelivery(aws, result.requestId());
        invoke(sqsEvent(queued.body()));
        Message requeued = receiveRedelivery(aws, result.requestId());

        // then: both messages are in the owner's group, so a fair queue serves other callers' callbacks first
        assertThat(List.of(queued, requeued)).allSatisfy(m -> assertThat(m.attributes())
                .containsEntry(MessageSystemAttributeName.MESSAGE_GROUP_ID, owner.value()));
    }

    @Test
    void notify_shouldTryEveryCallbackOfAQueueBatchAtOnce_whenTheirReceiverNeverAnswers() throws IOException {
        try (LoopbackListener silent = new LoopbackListener()) {
            // given: five callbacks to an address that accepts and never answers, waiting on the callback queue
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                JobResult result = succeeded(UUID.randomUUID().toString(), "http://localhost:" + silent.port()
                        + "/hook", OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
                        "caller-" + i)));
                putResult(result);
                invoke(sample("s3-result-succeeded.json").replace("results/" + A + ".json",
                        JobLayout.resultKey(result.requestId())));
                ids.add(result.requestId());
            }
            String batch = sqsEvent(ids.stream().map(id -> receiveRedelivery(aws, id).body()).toArray(String[]::new));

            // when: the queue's mapping hands them to the notifier in one batch
            CompletableFuture<JsonNode> report = CompletableFuture.supplyAsync(() -> invoke(batch));

            // then: all five are tried while the first attempt still waits for its answer (8 s), not one by one
            await().atMost(Duration.ofSeconds(6)).until(() -> silent.connections() == 5);
            assertThat(report.join().get("items")).extracting(i -> i.get("callback").asText())
                    .containsOnly("FAILED").hasSize(5);
        }
    }

    /** Takes the callback queue's message for {@code requestId}, leaving the others there. */
    static Message receiveRedelivery(LocalAws aws, String requestId) {
        String url = aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE);
        try (SqsClient sqs = aws.newSqsClient()) {
            return await().atMost(Duration.ofSeconds(20)).until(() -> {
                Message match = null;
                for (Message m : sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(1)
                        .messageSystemAttributeNames(MessageSystemAttributeName.MESSAGE_GROUP_ID)).messages()) {
                    if (match == null && m.body().contains(requestId)) {
                        match = m;
                    } else {
                        sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())
                                .visibilityTimeout(0));
                    }
                }
                if (match != null) {
                    String handle = match.receiptHandle();
                    sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(handle));
                }
                return Optional.ofNullable(match);
            }, Optional::isPresent).orElseThrow();
        }
    }

    /** What the callback queue's event source mapping sends: an SQS event of these message bodies. */
    static String sqsEvent(String... bodies) {
        var event = JobJson.mapper().createObjectNode();
        var records = event.putArray("Records");
        for (String body : bodies) {
            records.addObject().put("messageId", UUID.randomUUID().toString())
                    .put("receiptHandle", "rh").put("body", body).put("eventSource", "aws:sqs")
                    .put("eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:gpupipe-callback-retry")
                    .put("awsRegion", "us-east-1");
        }
        return event.toString();
    }

    /** Plays the callback queue's event source mapping once: its messages for these ids, in one event. */
    static JsonNode deliverQueued(LocalAws aws, String... requestIds) {
        return invoke(sqsEvent(Arrays.stream(requestIds).map(id -> receiveRedelivery(aws, id).body())
                .toArray(String[]::new)));
    }

    /**
     * Tests reuse request ids; in AWS each id has exactly one result, so its delivery record starts empty, and no
     * callback of it waits on the callback queue.
     */
    static void forgetDeliveries(LocalAws aws) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(JobLayout.NOTIFICATIONS_PREFIX)).contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(aws.bucket()).key(o.key())));
        }
        try (SqsClient sqs = aws.newSqsClient()) {
            sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE)));
        }
    }

    @Test
    void notify_shouldNotResendWhatWentOut_whenTheSameEventArrivesAgain() {
        // given: S3 delivers events at least once, and Lambda retries a failed invocation with the same event
        putResult(succeeded(A, receiver.url("/hooks/ok")));
        invoke(sample("s3-result-succeeded.json"));
        deliverQueued(aws, A);

        // when
        JsonNode again = invoke(sample("s3-result-succeeded.json"));

        // then: one SNS message and one callback in all; the report names the first publish
        assertThat(sns.published()).hasSize(1);
        assertThat(receiver.received()).hasSize(1);
        assertThat(again.at("/items/0/messageId").asText()).isEqualTo(sns.published().get(0).messageId());
        assertThat(again.at("/items/0/callback").asText()).isEqualTo("DELIVERED");
        assertThat(queuedCallbacks()).isZero();
    }

    private int queuedCallbacks() {
        try (SqsClient sqs = aws.newSqsClient()) {
            return Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(aws.queueUrl(
                    LocalAws.CALLBACK_RETRY_QUEUE)).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                    .attributes().get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
        }
    }

    @Test
    void notify_shouldPublishToSuccessTopicAndPostSignedCallback_whenResultSucceeded() {
        // given
        putResult(succeeded(A, receiver.url("/hooks/ok")));

        // when
        JsonNode report = invoke(sample("s3-result-succeeded.json"));

        // then: the report (the callback is handed to the callback queue, which delivers it)
        assertThat(report.get("notified").asInt()).isEqualTo(1);
        assertThat(report.at("/items/0/callback").asText()).isEqualTo("QUEUED");
        assertThat(deliverQueued(aws, A).at("/items/0/callback").asText()).isEqualTo("DELIVERED");
        // the SNS event: compact, on the success topic, filterable
        assertThat(sns.published()).hasSize(1);
        SnsStandIn.Published published = sns.published().get(0);
        assertThat(published.topicArn()).isEqualTo(SUCCESS_TOPIC);
        assertThat(JobJson.read(published.message(), Map.class)).isEqualTo(Map.of(
                "requestId", A, "status", "succeeded", "task", "generate", "tier", "small",
                "resultLocation", "s3://gpupipe-results/results/" + A + ".json",
                "completedAt", "2026-11-29T12:00:05Z"));
        assertThat(published.attributes()).isEqualTo(Map.of("status", "succeeded", "tier", "small",
                "task", "generate"));
        assertThat(report.at("/items/0/messageId").asText()).isEqualTo(published.messageId());
        // the callback: the same bytes, signed the Standard Webhooks way (and, for one release, the old way too)
        List<CallbackReceiver.Received> calls = receiver.received();
        assertThat(calls).hasSize(1);
        CallbackReceiver.Received call = calls.get(0);
        assertThat(call.body()).isEqualTo(published.message());
        assertThat(call.contentType()).isEqualTo("application/json");
        assertThat(call.webhookId()).isEqualTo(CallbackSignature.messageId(aws.bucket(), A));
        assertThat(call.signature()).startsWith("v1,");
        assertThat(Math.abs(Long.parseLong(call.timestamp()) - Instant.now().getEpochSecond())).isLessThan(60);
        assertThat(call.verifiedBy(SECRET)).isTrue();
        assertThat(call.verifiedBy("wrong-secret")).isFalse();
        assertThat(call.headers().get("x-gpupipe-timestamp")).isEqualTo(call.timestamp());
        assertThat(call.legacyVerifiedBy(SECRET)).isTrue();
    }

    @Test
    void notify_shouldReleaseTheOwnersSlotOnce_andNameTheOwner_whenACallersResultArrivesTwice() {
        // given: a caller's job counted against its limit (with another of its jobs still running), and its result
        Owner owner = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
                UUID.randomUUID().toString()));
        String finishedId = UUID.randomUUID().toString();
        InferenceJob finished = job(finishedId, null).withKey(JobKey.submitted(owner, finishedId));
        JobResult result = JobResult.succeeded(finished, JobResult.Output.text("Done.", JobResult.Usage.of(3, 1),
                "stop"), run(Tier.of("small")), DONE);
        String otherId = UUID.randomUUID().toString();
        InferenceJob other = job(otherId, null).withKey(JobKey.submitted(owner, otherId));
        try (S3Client s3 = aws.newS3Client()) {
            S3JobSlots slots = new S3JobSlots(s3, aws.bucket());
            holding(s3, slots, owner, finished, 0);
            holding(s3, slots, owner, other, 1);
            putResult(result);
            String event = sample("s3-result-succeeded.json").replace("results/" + A + ".json",
                    JobLayout.resultKey(result.requestId()));

            // when: S3 delivers its event twice
            invoke(event);
            invoke(event);

            // then: its slot freed, the other job's still held; the SNS event names the owner for filtering
            assertThat(slots.read(owner, 0)).isEmpty();
            assertThat(slots.read(owner, 1)).hasValueSatisfying(slot -> assertThat(slot.holder().jobId())
                    .isEqualTo(other.requestId()));
        }
        assertThat(sns.published()).hasSize(1);
        assertThat(sns.published().get(0).attributes()).containsEntry("owner", owner.value());
    }

    /** {@code job} admitted as the router admits it: slot {@code number} claimed, then its marker naming it. */
    private void holding(S3Client s3, S3JobSlots slots, Owner owner, InferenceJob job, int number) {
        String eTag = slots.claim(owner, number, new SlotHolder(job.requestId(), DONE)).orElseThrow();
        new S3JobStore(s3, aws.bucket()).createMarker(JobState.queued(job, Tier.of("small"), DONE)
                .holding(new QuotaSlot(number, eTag))).orElseThrow();
    }

    @Test
    void notify_shouldPublishToErrorTopicWithErrorCode_whenResultFailed() {
        // given
        putResult(JobResult.failed(job(B, null), JobResult.JobError.of(ErrorCodes.MODEL_TIMEOUT, "took too long"),
                run(Tier.of("large")), DONE));

        // when
        JsonNode report = invoke(sample("s3-result-failed.json"));

        // then
        assertThat(report.at("/items/0/callback").asText()).isEqualTo("NONE");
        assertThat(sns.published()).singleElement().satisfies(p -> {
            assertThat(p.topicArn()).isEqualTo(ERROR_TOPIC);
            JsonNode event = JobJson.read(p.message(), JsonNode.class);
            assertThat(event.get("status").asText()).isEqualTo("failed");
            assertThat(event.get("errorCode").asText()).isEqualTo("model_timeout");
            assertThat(event.get("tier").asText()).isEqualTo("large");
            assertThat(event.has("error")).isFalse();
            assertThat(p.attributes()).containsEntry("status", "failed").containsEntry("tier", "large");
        });
        assertThat(receiver.received()).isEmpty();
    }

    @Test
    void notify_shouldReportEachRecord_whenBatchMixesGoodMissingMalformedAndRefusedTargets() {
        // given
        receiver.script("/hooks/flaky", 503, 503);
        receiver.script("/hooks/down", 500, 500, 500, 500);
        putResult(succeeded(C, receiver.url("/hooks/flaky")));
        // D is never written: the object is missing
        putRaw(JobLayout.resultKey(E), "this is not JSON");
        putResult(succeeded(G, "https://169.254.169.254/latest/meta-data/iam/security-credentials/"));
        putResult(JobResult.failed(job(H, receiver.url("/hooks/down")),
                JobResult.JobError.of(ErrorCodes.MODEL_ERROR, "boom"), run(Tier.of("small")), DONE));

        // when: the records are notified, and the callback queue then tries its messages three times
        JsonNode report = invoke(sample("never-delivered/s3-results-batch.json"));
        List<String> logged = lines.lines();
        assertThat(receiver.received()).as("nothing sent within the S3 event's invocation").isEmpty();
        List<JsonNode> tries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            tries.add(deliverQueued(aws, C, H));
        }

        // then: one line per record, in order
        assertThat(report.get("records").asInt()).isEqualTo(6);
        assertThat(report.get("notified").asInt()).isEqualTo(3);
        assertThat(report.get("skipped").asInt()).isEqualTo(3);
        assertThat(report.get("failed").asInt()).isEqualTo(0);
        assertThat(report.get("items")).extracting(i -> i.get("outcome").asText(),
                i -> i.path("callback").asText(null)).containsExactly(
                tuple("notified", "QUEUED"), tuple("skipped", null), tuple("skipped", null),
                tuple("skipped", null), tuple("notified", "REFUSED"), tuple("notified", "QUEUED"));
        assertThat(report.at("/items/1/reason").asText()).isEqualTo("object is missing");
        assertThat(report.at("/items/2/reason").asText()).contains("not a JSON job result");
        assertThat(report.at("/items/3/reason").asText()).contains("not a results/{requestId}.json key");
        assertThat(report.at("/items/4/reason").asText()).contains("169.254.169.254").contains("link-local");
        // SNS got the three results, each on its topic
        assertThat(sns.published()).extracting(SnsStandIn.Published::topicArn).containsExactly(
                SUCCESS_TOPIC, SUCCESS_TOPIC, ERROR_TOPIC);
        // from the queue: the flaky receiver got three signed tries, the last delivered; the dead one three failed ones;
        // nothing went elsewhere (each try verifies, and all carry the same webhook-id: the receiver's idempotency key)
        assertThat(tries).extracting(t -> t.at("/items/0/callback").asText(), t -> t.at("/items/1/callback").asText())
                .containsExactly(tuple("FAILED", "FAILED"), tuple("FAILED", "FAILED"), tuple("DELIVERED", "FAILED"));
        assertThat(receiver.received("/hooks/flaky")).hasSize(3)
                .allSatisfy(call -> assertThat(call.verifiedBy(SECRET)).isTrue())
                .extracting(CallbackReceiver.Received::webhookId).containsOnly(
                        CallbackSignature.messageId(aws.bucket(), C));
        assertThat(receiver.received("/hooks/down")).hasSize(3);
        assertThat(receiver.received()).hasSize(6);
        // one structured log line per record, and per message of the queue
        assertThat(logged).hasSize(6);
        assertThat(JobJson.read(logged.get(0), JsonNode.class).get("callback").asText()).isEqualTo("QUEUED");
        assertThat(lines.lines()).hasSize(12);
        JsonNode downLine = JobJson.read(lines.lines().get(11), JsonNode.class);
        assertThat(downLine.get("level").asText()).isEqualTo("WARN");
        assertThat(downLine.get("callbackAttempts").asInt()).isEqualTo(1);
        assertThat(downLine.get("callbackHttpStatus").asText()).isEqualTo("500");
    }

    @Test
    void notify_shouldRefuseLoopbackCallbacks_whenHostIsNotAllowListed() {
        for (String url : List.of("http://127.0.0.1:" + receiver.port() + "/hooks/ok",
                "https://127.0.0.1:" + receiver.port() + "/hooks/ok",
                "https://[::ffff:127.0.0.1]:" + receiver.port() + "/hooks/ok",
                "https://[::1]:" + receiver.port() + "/hooks/ok")) {
            // given: a fresh result each time (in AWS a requestId has one result, so one delivery record)
            putResult(succeeded(A, url));
            forgetDeliveries(aws);

            // when
            JsonNode report = invoke(sample("s3-result-succeeded.json"));

            // then
            assertThat(report.at("/items/0/callback").asText()).as(url).isEqualTo("REFUSED");
        }
        assertThat(receiver.received()).isEmpty();
        assertThat(sns.published()).hasSize(4);
    }

    @Test
    void notify_shouldReportRetryableFailureAndKeepOthers_whenOneRecordCannotBePublished() {
        // given
        putResult(succeeded(I, null));
        putResult(succeeded(J, null));
        sns.failMessagesContaining(I);

        // when
        JsonNode report = invoke(sample("s3-results-pair.json"));

        // then: J is notified, I is reported; the invocation succeeds so J is not notified twice
        assertThat(report.get("failed").asInt()).isEqualTo(1);
        assertThat(report.get("notified").asInt()).isEqualTo(1);
        assertThat(report.at("/items/0/outcome").asText()).isEqualTo("failed");
        assertThat(report.at("/items/0/retryable").asBoolean()).isTrue();
        assertThat(sns.published()).singleElement().satisfies(p -> assertThat(p.message()).contains(J));
    }

    @Test
    void notify_shouldFailInvocation_whenEveryRecordFailedRetryably() {
        // given
        putResult(succeeded(A, receiver.url("/hooks/ok")));
        sns.failMessagesContaining(A);

        // when
        String body = given().contentType("application/json").body(sample("s3-result-succeeded.json"))
                .when().post()
                .then().statusCode(500)
                .extract().asString();

        // then: Lambda will retry the event; nothing was sent half-way
        assertThat(body).contains("NotificationFailedException");
        assertThat(sns.published()).isEmpty();
        assertThat(receiver.received()).isEmpty();
    }

    @Test
    void notify_shouldPublishAndCallBackAsForAnyResult_whenTheResultWasAnsweredFromTheCache() {
        // given: the router answered A from B's cache entry (an ordinary results/A.json, marked cached)
        JobResult source = succeeded(B, null);
        CacheKey key = CacheKey.of("awq", job(B, null));
        putResult(CacheEntry.of(key, source, DONE).answer(job(A, receiver.url("/hooks/ok")), Tier.of("small"),
                DONE));

        // when
        JsonNode report = invoke(sample("s3-result-succeeded.json"));

        // then: the success topic and the signed callback, both saying cached
        assertThat(report.get("notified").asInt()).isEqualTo(1);
        deliverQueued(aws, A);
        assertThat(sns.published()).hasSize(1);
        JsonNode event = JobJson.read(sns.published().get(0).message(), JsonNode.class);
        assertThat(event.path("requestId").asText()).isEqualTo(A);
        assertThat(event.path("status").asText()).isEqualTo("succeeded");
        assertThat(event.path("cached").asBoolean()).isTrue();
        assertThat(sns.published().get(0).topicArn()).isEqualTo(SUCCESS_TOPIC);
        List<CallbackReceiver.Received> calls = receiver.received();
        assertThat(calls).hasSize(1);
        assertThat(calls.get(0).body()).isEqualTo(sns.published().get(0).message());
        assertThat(calls.get(0).verifiedBy(SECRET)).isTrue();
    }

    static InferenceJob job(String id, String callbackUrl) {
        return new InferenceJob(id, Task.GENERATE, "What is Amazon ECS?", 64, 0.7, 1.0, null, null, null,
                callbackUrl, null, DONE.minusSeconds(30));
    }

    private static JobResult.Provenance run(Tier tier) {
        return new JobResult.Provenance(tier, "mistral-7b", "awq", "arn:aws:ecs:us-east-1:123456789012:task/x", 1,
                100L, 4956L);
    }

    static JobResult succeeded(String id, String callbackUrl) {
        return JobResult.succeeded(job(id, callbackUrl), JobResult.Output.text("Amazon ECS is a container service.",
                JobResult.Usage.of(17, 9), "stop"), run(Tier.of("small")), DONE);
    }

    /** {@code owner}'s succeeded job, submitted over the API as {@code id} (so stored under its owned id). */
    static JobResult succeeded(String id, String callbackUrl, Owner owner) {
        return JobResult.succeeded(job(id, callbackUrl).withKey(JobKey.submitted(owner, id)), JobResult.Output.text(
                "Amazon ECS is a container service.", JobResult.Usage.of(17, 9), "stop"), run(Tier.of("small")), DONE);
    }

    private void putResult(JobResult result) {
        putResult(aws, result);
    }

    /** Writes {@code result} where a worker would, for the notifier to read. */
    static void putResult(LocalAws aws, JobResult result) {
        putRaw(aws, JobLayout.resultKey(result.requestId()), JobJson.write(result));
    }

    private void putRaw(String key, String text) {
        putRaw(aws, key, text);
    }

    private static void putRaw(LocalAws aws, String key, String text) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(key).contentType("application/json"),
                    RequestBody.fromString(text, StandardCharsets.UTF_8));
        }
    }
}
