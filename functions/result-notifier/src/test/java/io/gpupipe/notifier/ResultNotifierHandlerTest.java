package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.RecordingJsonLines;
import io.gpupipe.adapters.aws.S3QuotaLedgers;
import io.gpupipe.jobs.quota.QuotaLedgers;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.UnfinishedLedger;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.InjectSnsStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.notifier.domain.CallbackRedelivery;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

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
        try (SqsClient sqs = aws.newSqsClient()) {
            sqs.purgeQueue(b -> b.queueUrl(aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE)));
        }
    }

    @Test
    void notify_shouldRedeliverTheCallbackLaterWithoutRepublishing_whenReceiverIsDownForAWhile() {
        // given: the receiver is down for every attempt of the first invocation (3 attempts, well under 20 s)
        putResult(succeeded(A, receiver.url("/hooks/down")));
        receiver.script("/hooks/down", 503, 503, 503);
        JsonNode first = invoke(sample("s3-result-succeeded.json"));
        assertThat(first.at("/items/0/callback").asText()).isEqualTo("FAILED");

        // then: a delayed redelivery of that callback waits on the retry queue
        Message redelivery = receiveRedelivery(A);

        // when: the receiver is back and the retry queue delivers the message to the notifier
        JsonNode second = invoke(sqsEvent(redelivery.body()));

        // then: the callback arrives, and the SNS event is not published again
        assertThat(second.at("/items/0/callback").asText()).isEqualTo("DELIVERED");
        assertThat(receiver.received("/hooks/down")).hasSize(4);
        assertThat(sns.published()).hasSize(1);
        // and the redelivery is the same event to the receiver: the same webhook-id as the first three tries
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

    private Message receiveRedelivery(String requestId) {
        try (SqsClient sqs = aws.newSqsClient()) {
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE))
                    .maxNumberOfMessages(10).waitTimeSeconds(5)).messages();
            assertThat(messages).as("redeliveries queued").isNotEmpty();
            Message message = messages.stream().filter(m -> m.body().contains(requestId)).findFirst().orElseThrow();
            sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE))
                    .receiptHandle(message.receiptHandle()));
            return message;
        }
    }

    /** What the retry queue's event source mapping sends: an SQS event. */
    static String sqsEvent(String body) {
        var event = JobJson.mapper().createObjectNode();
        event.putArray("Records").addObject().put("messageId", UUID.randomUUID().toString())
                .put("receiptHandle", "rh").put("body", body).put("eventSource", "aws:sqs")
                .put("eventSourceARN", "arn:aws:sqs:us-east-1:123456789012:gpupipe-callback-retry")
                .put("awsRegion", "us-east-1");
        return event.toString();
    }

    /** Tests reuse request ids; in AWS each id has exactly one result, so its delivery record starts empty. */
    static void forgetDeliveries(LocalAws aws) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.listObjectsV2(b -> b.bucket(aws.bucket()).prefix(JobLayout.NOTIFICATIONS_PREFIX)).contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(aws.bucket()).key(o.key())));
        }
    }

    @Test
    void notify_shouldNotResendWhatWentOut_whenTheSameEventArrivesAgain() {
        // given: S3 delivers events at least once, and Lambda retries a failed invocation with the same event
        putResult(succeeded(A, receiver.url("/hooks/ok")));
        invoke(sample("s3-result-succeeded.json"));

        // when
        JsonNode again = invoke(sample("s3-result-succeeded.json"));

        // then: one SNS message and one callback in all; the report names the first publish
        assertThat(sns.published()).hasSize(1);
        assertThat(receiver.received()).hasSize(1);
        assertThat(again.at("/items/0/messageId").asText()).isEqualTo(sns.published().get(0).messageId());
        assertThat(again.at("/items/0/callback").asText()).isEqualTo("DELIVERED");
    }

    @Test
    void notify_shouldPublishToSuccessTopicAndPostSignedCallback_whenResultSucceeded() {
        // given
        putResult(succeeded(A, receiver.url("/hooks/ok")));

        // when
        JsonNode report = invoke(sample("s3-result-succeeded.json"));

        // then: the report
        assertThat(report.get("notified").asInt()).isEqualTo(1);
        assertThat(report.at("/items/0/callback").asText()).isEqualTo("DELIVERED");
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
        Owner owner = new CallerIdentity.Jwt("https://idp.example.com", UUID.randomUUID().toString()).owner();
        JobResult result = JobResult.succeeded(job(UUID.randomUUID().toString(), null).submittedBy(owner),
                JobResult.Output.text("Done.", JobResult.Usage.of(3, 1), "stop"), run(Tier.of("small")), DONE);
        QuotaLedgers ledgers;
        try (S3Client s3 = aws.newS3Client()) {
            ledgers = new S3QuotaLedgers(s3, aws.bucket());
            ledgers.create(owner, QuotaKind.JOBS, new UnfinishedLedger(Map.of(result.requestId(), 1L, "other", 2L)))
                    .orElseThrow();
            putResult(result);
            String event = sample("s3-result-succeeded.json").replace("results/" + A + ".json",
                    JobLayout.resultKey(result.requestId()));

            // when: S3 delivers its event twice
            invoke(event);
            invoke(event);

            // then: released once, the other job still counted; the SNS event names the owner for filtering
            assertThat(ledgers.read(owner, QuotaKind.JOBS).orElseThrow().ledger().admitted()).containsOnlyKeys(
                    "other");
        }
        assertThat(sns.published()).hasSize(1);
        assertThat(sns.published().get(0).attributes()).containsEntry("owner", owner.value());
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

        // when
        JsonNode report = invoke(sample("never-delivered/s3-results-batch.json"));

        // then: one line per record, in order
        assertThat(report.get("records").asInt()).isEqualTo(6);
        assertThat(report.get("notified").asInt()).isEqualTo(3);
        assertThat(report.get("skipped").asInt()).isEqualTo(3);
        assertThat(report.get("failed").asInt()).isEqualTo(0);
        assertThat(report.get("items")).extracting(i -> i.get("outcome").asText(),
                i -> i.path("callback").asText(null)).containsExactly(
                tuple("notified", "DELIVERED"), tuple("skipped", null), tuple("skipped", null),
                tuple("skipped", null), tuple("notified", "REFUSED"), tuple("notified", "FAILED"));
        assertThat(report.at("/items/1/reason").asText()).isEqualTo("object is missing");
        assertThat(report.at("/items/2/reason").asText()).contains("not a JSON job result");
        assertThat(report.at("/items/3/reason").asText()).contains("not a results/{requestId}.json key");
        assertThat(report.at("/items/4/reason").asText()).contains("169.254.169.254").contains("link-local");
        // SNS got the three results, each on its topic
        assertThat(sns.published()).extracting(SnsStandIn.Published::topicArn).containsExactly(
                SUCCESS_TOPIC, SUCCESS_TOPIC, ERROR_TOPIC);
        // the flaky receiver got three signed tries, the dead one exactly max-attempts (3), nothing went elsewhere
        // (each try verifies, and all three carry the same webhook-id: the receiver's idempotency key)
        assertThat(receiver.received("/hooks/flaky")).hasSize(3)
                .allSatisfy(call -> assertThat(call.verifiedBy(SECRET)).isTrue())
                .extracting(CallbackReceiver.Received::webhookId).containsOnly(
                        CallbackSignature.messageId(aws.bucket(), C));
        assertThat(receiver.received("/hooks/down")).hasSize(3);
        assertThat(receiver.received()).hasSize(6);
        // one structured log line per record
        assertThat(lines.lines()).hasSize(6);
        JsonNode flakyLine = JobJson.read(lines.lines().get(0), JsonNode.class);
        assertThat(flakyLine.get("callbackAttempts").asInt()).isEqualTo(3);
        JsonNode downLine = JobJson.read(lines.lines().get(5), JsonNode.class);
        assertThat(downLine.get("level").asText()).isEqualTo("WARN");
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

    private static InferenceJob job(String id, String callbackUrl) {
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
