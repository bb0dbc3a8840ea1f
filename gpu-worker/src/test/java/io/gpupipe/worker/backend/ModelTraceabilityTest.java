package io.gpupipe.worker.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.Task;
import io.gpupipe.worker.backend.openai.OpenAiBackend;
import io.gpupipe.worker.backend.openai.VllmClient;
import io.gpupipe.worker.standin.VllmStandIn;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Seed 003: a result names the exact weights, and only weights the worker verified. The deployment tells the worker
 * the version ({@code repo@commit+image tag}) and the root vLLM must report for it in {@code GET /v1/models}.
 */
@QuarkusTest
class ModelTraceabilityTest {
    private static final String VERSION = "example/model@0123456789abcdef0123456789abcdef01234567+small-1";

    @Test
    void ensureReady_shouldClaimTheDeployedVersion_whenTheServerReportsTheExpectedRoot() {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults().withModel("m1"))) {
            OpenAiBackend backend = backend(standIn, "/models/m1");

            backend.ensureReady();

            assertThat(backend.identity(Task.GENERATE)).isEqualTo(ModelIdentity.pinned("m1", VERSION));
        }
    }

    @Test
    void ensureReady_shouldRefuseForGood_whenTheServerServesOtherWeights() {
        try (VllmStandIn standIn = VllmStandIn.start(VllmStandIn.Settings.defaults().withModel("m1"))) {
            OpenAiBackend backend = backend(standIn, "/models/0123456789abcdef0123456789abcdef01234567");

            assertThatThrownBy(backend::ensureReady).isInstanceOfSatisfying(ModelException.class, e -> {
                assertThat(e.failure().retryable()).isFalse();
                assertThat(e.getMessage()).isEqualTo("model m1 is served from /models/m1, expected "
                        + "/models/0123456789abcdef0123456789abcdef01234567: refusing to claim model version "
                        + VERSION);
            });
        }
    }

    private static OpenAiBackend backend(VllmStandIn standIn, String expectedRoot) {
        VllmClient client = QuarkusRestClientBuilder.newBuilder().baseUri(standIn.url()).build(VllmClient.class);
        return new OpenAiBackend(client, new OpenAiBackend.Settings(Optional.of("m1"), Optional.of(VERSION),
                Optional.empty(), Optional.empty(), Optional.empty(), true, Optional.of(expectedRoot)));
    }
}
