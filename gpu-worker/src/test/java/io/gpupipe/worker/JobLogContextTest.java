package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * A job's log lines carry its requestId, tier and trace id as MDC entries (JSON logs print them as {@code mdc}), so one Logs
 * Insights query finds every line of a job. Shares the app and resources of {@link WorkerPipelineTest}.
 */
@QuarkusTest
class JobLogContextTest extends WorkerAppTest {
    private final List<Map<String, String>> captured = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            ExtLogRecord ext = (ExtLogRecord) record;
            captured.add(Map.of("message", ext.getFormattedMessage(), LogFields.REQUEST_ID,
                    String.valueOf(ext.getMdc(LogFields.REQUEST_ID)), LogFields.TIER,
                    String.valueOf(ext.getMdc(LogFields.TIER)), LogFields.TRACE_ID,
                    String.valueOf(ext.getMdc(LogFields.TRACE_ID))));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    @BeforeEach
    void captureLogs() {
        Logger.getLogger("io.gpupipe").addHandler(capture);
    }

    @AfterEach
    void stopCapturing() {
        Logger.getLogger("io.gpupipe").removeHandler(capture);
    }

    @Test
    void process_shouldLogWithTheJobsRequestIdAndTier_whileTheJobRuns() {
        // given: an unreadable marker, which the worker logs (and then ignores) while processing the job
        String id = LocalPipeline.newRequestId();
        pipeline.s3().putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(id)),
                RequestBody.fromString("{not json"));

        // when
        pipeline.send(LocalAws.DEFAULT_TEXT_QUEUE, LocalPipeline.job(id, "log context " + id));
        assertThat(pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT).status()).isNotNull();

        // then
        assertThat(captured).filteredOn(line -> line.get("message").contains("unreadable marker of " + id))
                .isNotEmpty().allSatisfy(line -> {
                    assertThat(line.get(LogFields.REQUEST_ID)).isEqualTo(id);
                    assertThat(line.get(LogFields.TIER)).isEqualTo("small");
                    // the job's trace (the app's worker has Quarkus OpenTelemetry's tracer): 32 hex digits
                    assertThat(line.get(LogFields.TRACE_ID)).matches("[0-9a-f]{32}").isEqualTo(
                            pipeline.awaitResult(id, WorkerPipelineTest.RESULT_TIMEOUT).traceId());
                });
    }
}
