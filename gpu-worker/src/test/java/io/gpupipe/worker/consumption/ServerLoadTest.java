package io.gpupipe.worker.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServerLoadTest {
    private static final String VLLM_METRICS = """
            # HELP vllm:num_requests_running Number of requests in model execution batches.
            # TYPE vllm:num_requests_running gauge
            vllm:num_requests_running{engine="0",model_name="mistral-7b"} 12.0
            vllm:num_requests_running{engine="1",model_name="mistral-7b"} 4.0
            # HELP vllm:num_requests_waiting Number of requests waiting to be processed.
            # TYPE vllm:num_requests_waiting gauge
            vllm:num_requests_waiting{engine="0",model_name="mistral-7b"} 3.0
            vllm:num_requests_waiting_by_reason{engine="0",reason="capacity"} 99.0
            vllm:gpu_cache_usage_perc{engine="0"} 0.42
            """;

    @Test
    void fromPrometheus_shouldSumEveryEngine_whenVllmExportsTheGauges() {
        // when
        var load = ServerLoad.fromPrometheus(VLLM_METRICS);
        // then
        assertThat(load).contains(new ServerLoad(16, 3));
    }

    @Test
    void fromPrometheus_shouldBeEmpty_whenServerDoesNotExportWaiting() {
        assertThat(ServerLoad.fromPrometheus("# TYPE process_cpu_seconds_total counter\n"
                + "process_cpu_seconds_total 12.5\n")).isEmpty();
        assertThat(ServerLoad.fromPrometheus(null)).isEmpty();
    }

    @Test
    void sum_shouldReadUnlabelledSamples_andSkipMalformedOnes() {
        String text = "vllm:num_requests_waiting 2\nvllm:num_requests_waiting{x=\"1\"} NaN\n"
                + "vllm:num_requests_waiting{x=\"2\"} oops\nvllm:num_requests_waiting{x=\"3\"} 5 1700000000000\n";
        assertThat(PrometheusText.sum(text, ServerLoad.WAITING_METRIC)).hasValue(7.0);
    }
}
