package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.observability.TracingSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/** The worker task's tracing variables come from CDK context, with the names SAM uses for the functions. */
class WorkerTracingTest {

    @Test
    void workerEnvironment_shouldExportToOtlp_whenContextAsksForIt() {
        Map<String, Object> env = workerEnvironment(SynthesizedApp.get().gpu);
        assertThat(env).doesNotContainKey(TracingSettings.EXPORTER_ENV);

        Map<String, Object> context = new HashMap<>(SynthesizedApp.REVISIONS);
        context.put("tracingExporter", "otlp");
        context.put("tracingOtlpEndpoint", "http://127.0.0.1:4318/v1/traces");
        Template gpu = Template.fromStack(GpupipeApp.build(new App(AppProps.builder().context(context).build()))
                .worker());
        assertThat(workerEnvironment(gpu)).containsEntry(TracingSettings.EXPORTER_ENV, "otlp")
                .containsEntry(TracingSettings.OTLP_ENDPOINT_ENV, "http://127.0.0.1:4318/v1/traces");
    }

    @Test
    void synth_shouldFailReadably_whenOtlpHasNoEndpointOrTheExporterIsUnknown() {
        Map<String, Object> noEndpoint = new HashMap<>(SynthesizedApp.REVISIONS);
        noEndpoint.put("tracingExporter", "otlp");
        assertThatThrownBy(() -> GpupipeApp.build(new App(AppProps.builder().context(noEndpoint).build())))
                .hasMessageContaining("tracingOtlpEndpoint");
        Map<String, Object> unknown = new HashMap<>(SynthesizedApp.REVISIONS);
        unknown.put("tracingExporter", "zipkin");
        assertThatThrownBy(() -> GpupipeApp.build(new App(AppProps.builder().context(unknown).build())))
                .hasMessageContaining("none or otlp");
    }

    private static Map<String, Object> workerEnvironment(Template gpu) {
        return TemplateJson.list(TemplateJson.container(gpu, "small", "gpu-worker").get("Environment")).stream()
                .map(TemplateJson::map).collect(Collectors.toMap(e -> String.valueOf(e.get("Name")),
                        e -> e.get("Value")));
    }
}
