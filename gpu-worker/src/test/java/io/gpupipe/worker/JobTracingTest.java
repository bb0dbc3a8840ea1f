package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.standin.InjectVllmStandIn;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeNameForSends;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeValue;

/**
 * The worker continues the job's trace: one "worker job" span whose parent is the message's traceparent (the
 * router's span), with child spans for queue wait, marker claim, each model call and the result write; the result
 * carries the trace. A worker of the large queue with its own tracer, on the app and resources of
 * {@link WorkerPipelineTest}.
 */
@QuarkusTest
class JobTracingTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final TraceContext ROUTER = new TraceContext("5759e988bd862e3fe1be46a994272793",
            "53995c3f42cd8ad8", true);

    @InjectLocalAws
    LocalAws aws;

    @InjectVllmStandIn
    VllmStandIn standIn;

    @Inject
    WorkerLifecycle lifecycle;

    @Inject
    InferenceBackend backend;

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private SdkTracerProvider provider;
    private LocalPipeline pipeline;
    private Worker worker;
    private final ByteArrayOutputStream eventOutput = new ByteArrayOutputStream();

    @BeforeEach
    void tracedWorkerOnTheLargeQueue() {
        pipeline = new LocalPipeline(aws);
        await("the app's worker to start").atMost(TIMEOUT).until(() -> lifecycle.worker().isPresent());
        provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
        WorkerSettings settings = lifecycle.worker().orElseThrow().settings().withTier(Tier.of("large"))
                .withMaxInFlight(4).withoutAdaptiveWindow();
        var queue = new SqsTierQueue(pipeline.sqs(), aws.queueUrl(LocalAws.ESCALATION_QUEUE),
                Optional.of(aws.queueUrl(LocalAws.DLQ)));
        JobEvents events = event -> new StdoutJobEvents(new PrintStream(eventOutput, true, StandardCharsets.UTF_8),
                Clock.systemUTC()).emit(event);
        worker = new Worker(settings, queue, new S3JobStore(pipeline.s3(), aws.bucket()), backend, events,
                Clock.systemUTC(), ResultCacheWriter.NONE, provider.get("test"));
        worker.start();
    }

    @AfterEach
    void stop() {
        worker.drain(Duration.ofSeconds(5));
        provider.close();
    }

    @Test
    void process_shouldContinueTheRoutersTrace_withAChildSpanPerStep() {
        // given a job whose model answers 500 once, then recovers
        String id = LocalPipeline.newRequestId();
        String prompt = "traced " + id;
        standIn.failNext(1, prompt);
        sendWithTraceparent(LocalPipeline.job(id, prompt), ROUTER.traceparent());

        // when
        JobResult result = pipeline.awaitResult(id, TIMEOUT);

        // then
        assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
        List<SpanData> trace = awaitTrace(ROUTER.traceId(), 6);
        SpanData job = named(trace, JobSpans.JOB_SPAN).get(0);
        assertThat(job.getParentSpanId()).isEqualTo(ROUTER.spanId());
        assertThat(job.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(job.getAttributes().get(SpanAttributes.REQUEST_ID)).isEqualTo(id);
        assertThat(job.getAttributes().get(SpanAttributes.OUTCOME)).isEqualTo("succeeded");
        for (String step : List.of(JobSpans.QUEUE_WAIT_SPAN, JobSpans.MARKER_SPAN,
                InferenceRunner.MODEL_CALL_SPAN, JobSpans.RESULT_WRITE_SPAN)) {
            assertThat(named(trace, step)).as(step).isNotEmpty()
                    .allSatisfy(span -> assertThat(span.getParentSpanId()).isEqualTo(job.getSpanId()));
        }
        List<SpanData> calls = named(trace, InferenceRunner.MODEL_CALL_SPAN);
        assertThat(calls).extracting(c -> c.getAttributes().get(SpanAttributes.ATTEMPT)).containsExactly(1L, 2L);
        assertThat(calls.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(calls.get(1).getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        SpanData queueWait = named(trace, JobSpans.QUEUE_WAIT_SPAN).get(0);
        assertThat(queueWait.getStartEpochNanos()).isLessThanOrEqualTo(job.getStartEpochNanos() + 1_000_000);
        // the result names the trace and the job span, which the notifier continues
        assertThat(result.traceId()).isEqualTo(ROUTER.traceId());
        assertThat(result.trace()).contains(new TraceContext(ROUTER.traceId(), job.getSpanId(), true));
        // the job event log line carries the trace too
        assertThat(eventOutput.toString(StandardCharsets.UTF_8)).contains("\"requestId\":\"" + id + "\"")
                .contains("\"traceId\":\"" + ROUTER.traceId() + "\"");
    }

    @Test
    void process_shouldStartANewTrace_whenTheMessageCarriesNoTraceContext() {
        String id = LocalPipeline.newRequestId();
        pipeline.send(LocalAws.ESCALATION_QUEUE, LocalPipeline.job(id, "untraced " + id));
        JobResult result = pipeline.awaitResult(id, TIMEOUT);
        assertThat(result.traceId()).isNotNull().isNotEqualTo(ROUTER.traceId());
        SpanData job = named(awaitTrace(result.traceId(), 5), JobSpans.JOB_SPAN).get(0);
        assertThat(job.getParentSpanContext().isValid()).isFalse();
    }

    @Test
    void process_shouldContinueAnXrayTrace_whenOnlyAwsTraceHeaderIsSet() {
        String id = LocalPipeline.newRequestId();
        pipeline.sqs().sendMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.ESCALATION_QUEUE))
                .messageBody(LocalPipeline.job(id, "xray " + id))
                .messageSystemAttributes(Map.of(MessageSystemAttributeNameForSends.AWS_TRACE_HEADER,
                        MessageSystemAttributeValue.builder().dataType("String").stringValue(ROUTER.awsTraceHeader())
                                .build())));
        JobResult result = pipeline.awaitResult(id, TIMEOUT);
        assertThat(result.traceId()).isEqualTo(ROUTER.traceId());
        SpanData job = named(awaitTrace(ROUTER.traceId(), 5), JobSpans.JOB_SPAN).stream()
                .filter(s -> id.equals(s.getAttributes().get(SpanAttributes.REQUEST_ID))).findFirst().orElseThrow();
        assertThat(job.getParentSpanId()).isEqualTo(ROUTER.spanId());
    }

    private void sendWithTraceparent(String body, String traceparent) {
        pipeline.sqs().sendMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.ESCALATION_QUEUE)).messageBody(body)
                .messageAttributes(Map.of(MessageAttributes.TRACEPARENT, MessageAttributeValue.builder()
                        .dataType("String").stringValue(traceparent).build())));
    }

    private List<SpanData> awaitTrace(String traceId, int atLeast) {
        return await("the spans of trace " + traceId).atMost(TIMEOUT).until(() -> {
            provider.forceFlush().join(5, TimeUnit.SECONDS);
            return spans.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId)).toList();
        }, trace -> trace.size() >= atLeast && !named(trace, JobSpans.JOB_SPAN).isEmpty());
    }

    private static List<SpanData> named(List<SpanData> spans, String name) {
        return spans.stream().filter(s -> s.getName().equals(name)).toList();
    }
}
