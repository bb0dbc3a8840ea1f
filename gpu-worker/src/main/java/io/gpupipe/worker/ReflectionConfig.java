package io.gpupipe.worker;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import io.gpupipe.model.cache.CacheEntry;
import io.gpupipe.worker.backend.openai.VllmDtos;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Types serialised by Jackson, registered for native images. */
@RegisterForReflection(targets = {InferenceJob.class, JobState.class, JobResult.class, JobResult.Output.class,
    JobResult.Usage.class, JobResult.JobError.class, VllmDtos.CompletionRequest.class,
    VllmDtos.CompletionResponse.class, VllmDtos.Choice.class, VllmDtos.Usage.class, VllmDtos.SpeechRequest.class,
    VllmDtos.ModelList.class, VllmDtos.ModelCard.class, CacheEntry.class})
final class ReflectionConfig {
    private ReflectionConfig() {
    }
}
