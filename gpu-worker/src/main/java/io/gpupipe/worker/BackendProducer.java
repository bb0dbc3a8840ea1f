package io.gpupipe.worker;

import io.gpupipe.model.ModelServerContract;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.backend.embedded.EmbeddedBackend;
import io.gpupipe.worker.backend.openai.OpenAiBackend;
import io.gpupipe.worker.backend.openai.VllmClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Chooses the inference backend from {@code gpupipe.worker.backend}. */
@ApplicationScoped
public class BackendProducer {

    @Produces
    @Singleton
    InferenceBackend backend(WorkerConfig config, @RestClient Instance<VllmClient> vllm) {
        if (config.backend() == WorkerConfig.BackendKind.EMBEDDED) {
            WorkerConfig.Embedded embedded = config.embedded();
            int threads = embedded.threads().orElse(Math.max(1, Runtime.getRuntime().availableProcessors() / 2));
            boolean embeddingTier = TierCatalogue.bundled().find(config.tier().wireName()).map(tier -> TierCatalogue.bundled()
                    .get(tier).contract() == ModelServerContract.EMBEDDING).orElse(false);
            return new EmbeddedBackend(new EmbeddedBackend.Settings(embedded.textModelPath(), embedded.voice(),
                    embedded.contextSize(), threads, config.model(), config.modelVersion(), embeddingTier));
        }
        WorkerConfig.OpenAi openai = config.openai();
        return new OpenAiBackend(vllm.get(), new OpenAiBackend.Settings(config.model(), config.modelVersion(),
                openai.speechModel(), openai.voice(), openai.apiKey(), openai.sendPriority(),
                openai.expectedModelRoot()));
    }

    void close(@Disposes InferenceBackend backend) {
        backend.close();
    }
}
