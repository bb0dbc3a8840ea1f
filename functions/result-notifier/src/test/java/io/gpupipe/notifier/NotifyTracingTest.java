package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.observability.TraceContext;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.testing.InMemorySpans;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The notifier's span continues the job's trace from the result it reads: one trace from request to callback. */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
class NotifyTracingTest {
    private static final TraceContext WORKER_JOB = new TraceContext("5759e988bd862e3fe1be46a994272793",
            "53995c3f42cd8ad8", true);

    @InjectLocalAws
    LocalAws aws;

    @Inject
    InMemorySpans spans;

    @BeforeEach
    void reset() {
        spans.reset();
        ResultNotifierHandlerTest.forgetDeliveries(aws);
    }

    @Test
    void notify_shouldBeAChildOfTheWorkersJobSpan_whenTheResultCarriesItsTrace() {
        put(ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.A, null).withTrace(WORKER_JOB));

        invoke(sample("s3-result-succeeded.json"));

        // exported before the invocation returned (flushed by the handler)
        SpanData notify = onlyNotifySpan();
        assertThat(notify.getTraceId()).isEqualTo(WORKER_JOB.traceId());
        assertThat(notify.getParentSpanId()).isEqualTo(WORKER_JOB.spanId());
        assertThat(notify.getAttributes().get(SpanAttributes.REQUEST_ID)).isEqualTo(ResultNotifierHandlerTest.A);
    }

    @Test
    void notify_shouldStartATrace_whenTheResultCarriesNone() {
        put(ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.A, null));
        invoke(sample("s3-result-succeeded.json"));
        assertThat(onlyNotifySpan().getParentSpanContext().isValid()).isFalse();
    }

    private SpanData onlyNotifySpan() {
        return spans.only(ResultNotifier.NOTIFY_SPAN);
    }

    private void put(JobResult result) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId()))
                    .contentType("application/json"), RequestBody.fromString(JobJson.write(result),
                    StandardCharsets.UTF_8));
        }
    }
}
