package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.router.internal.SubmitTracing;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.testing.InMemorySpans;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * One trace per job starts at the router: its submit span continues the client's traceparent (or starts the trace)
 * and the SQS message carries the span as W3C traceparent (message attribute) and as X-Ray AWSTraceHeader (system
 * attribute), read back here from ElasticMQ over the wire as a worker would.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class SubmitTracingTest extends LocalAwsProbeSetup {
    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";

    @Inject
    InMemorySpans spans;

    @BeforeEach
    void forgetEarlierSpans() {
        spans.reset();
    }

    @Test
    void submit_shouldContinueTheClientsTraceOnTheMessage_whenTheRequestCarriesATraceparent() {
        String id = UUID.randomUUID().toString();
        given().contentType("application/json").header("traceparent", "00-" + CLIENT_TRACE + "-" + CLIENT_SPAN + "-01")
                .body("{\"requestId\":\"" + id + "\",\"prompt\":\"Hello\"}").post("/v1/jobs").then().statusCode(202);

        SpanData submit = onlySubmitSpan();
        assertThat(submit.getTraceId()).isEqualTo(CLIENT_TRACE);
        assertThat(submit.getParentSpanId()).isEqualTo(CLIENT_SPAN);
        assertThat(submit.getKind()).isEqualTo(SpanKind.SERVER);
        // the trace names the stored id, the one every later span (worker, notifier) names too
        assertThat(submit.getAttributes().get(SpanAttributes.REQUEST_ID)).isEqualTo(probe.stored(id));
        assertThat(submit.getAttributes().get(SpanAttributes.TIER)).isEqualTo("small");

        Message sent = receiveWithTraceHeader(LocalAws.DEFAULT_TEXT_QUEUE);
        TraceContext expected = new TraceContext(CLIENT_TRACE, submit.getSpanId(), true);
        assertThat(sent.messageAttributes().get(MessageAttributes.TRACEPARENT).stringValue())
                .isEqualTo(expected.traceparent());
        assertThat(sent.attributes().get(MessageSystemAttributeName.AWS_TRACE_HEADER))
                .isEqualTo(expected.awsTraceHeader());
    }

    @Test
    void submit_shouldStartANewXrayCompatibleTrace_whenTheRequestCarriesNone() {
        long before = System.currentTimeMillis() / 1000;
        given().contentType("application/json").body("{\"prompt\":\"Hello\"}").post("/v1/jobs").then()
                .statusCode(202);

        SpanData submit = onlySubmitSpan();
        assertThat(submit.getParentSpanContext().isValid()).isFalse();
        // X-Ray takes the trace id only if its first 8 hex digits are a recent epoch second
        assertThat(Long.parseLong(submit.getTraceId().substring(0, 8), 16)).isBetween(before - 1,
                System.currentTimeMillis() / 1000 + 1);
        Message sent = receiveWithTraceHeader(LocalAws.DEFAULT_TEXT_QUEUE);
        assertThat(TraceContext.fromTraceparent(sent.messageAttributes().get(MessageAttributes.TRACEPARENT)
                .stringValue())).contains(new TraceContext(submit.getTraceId(), submit.getSpanId(), true));
        assertThat(TraceContext.fromAwsTraceHeader(sent.attributes().get(MessageSystemAttributeName
                .AWS_TRACE_HEADER)).orElseThrow().traceId()).isEqualTo(submit.getTraceId());
    }

    @Test
    void submit_shouldStartANewTrace_whenTheClientsTraceparentIsMalformed() {
        given().contentType("application/json").header("traceparent", "00-not-a-trace-01")
                .body("{\"prompt\":\"Hello\"}").post("/v1/jobs").then().statusCode(202);
        assertThat(onlySubmitSpan().getParentSpanContext().isValid()).isFalse();
        probe.drainTierQueues();
    }

    private SpanData onlySubmitSpan() {
        return spans.only(SubmitTracing.SPAN_NAME);
    }

    private Message receiveWithTraceHeader(String queue) {
        try (SqsClient sqs = aws.newSqsClient()) {
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(queue)).maxNumberOfMessages(10)
                    .waitTimeSeconds(1).messageAttributeNames("All")
                    .messageSystemAttributeNames(MessageSystemAttributeName.AWS_TRACE_HEADER)).messages();
            assertThat(messages).hasSize(1);
            messages.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(queue))
                    .receiptHandle(m.receiptHandle())));
            return messages.get(0);
        }
    }
}
