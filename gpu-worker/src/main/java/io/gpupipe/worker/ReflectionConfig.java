package io.gpupipe.worker;

import io.gpupipe.worker.backend.openai.VllmDtos;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Types serialised by Jackson, registered for native images (the stored documents: adapters' StoredDocuments). */
@RegisterForReflection(targets = {VllmDtos.CompletionRequest.class, VllmDtos.CompletionResponse.class,
    VllmDtos.Choice.class, VllmDtos.Usage.class, VllmDtos.SpeechRequest.class, VllmDtos.ModelList.class,
    VllmDtos.ModelCard.class})
final class ReflectionConfig {
    private ReflectionConfig() {
    }
}
