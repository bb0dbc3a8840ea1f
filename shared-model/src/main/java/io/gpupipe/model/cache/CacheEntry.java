package io.gpupipe.model.cache;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the result cache ({@code cache/{key}.json}): the output of a succeeded job, which model version made
 * it, and which request ran it. Workers write it create-only after a success; the router answers later requests
 * with the same {@link CacheKey} from it. A speech entry's audio and a large embedding entry's vectors are the
 * cache's own copy ({@link CacheKey#audioObjectKey}, {@link CacheKey#embeddingsObjectKey}), so an entry outlives the
 * result it came from.
 *
 * @param key          the entry's {@link CacheKey#hex()}
 * @param requestId    the request whose model run produced the output
 * @param clientRequestId the id that request's client knows it by (a hit's {@code cachedFrom}: the cache is
 *                     partitioned by owner, so it names a job of the same caller), when it came through the API
 * @param model        the model that ran it
 * @param modelVersion the version the key was built from
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CacheEntry(String key, String requestId, Task task, String model, String modelVersion,
                         JobResult.Output output, Instant createdAt, String clientRequestId) {

    public CacheEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(modelVersion, "modelVersion");
        Objects.requireNonNull(output, "output");
    }

    /** The entry for the succeeded {@code result}; it names the cache's copy of the result's object, if it has one. */
    public static CacheEntry of(CacheKey key, JobResult result, Instant now) {
        if (result.status() != JobStatus.SUCCEEDED || result.isCached() || result.modelVersion() == null) {
            throw new IllegalArgumentException("only a model's own succeeded result is cached");
        }
        JobResult.Output output = switch (result.task()) {
            case GENERATE -> result.result();
            case EMBED -> result.result().withObjectAt(key.embeddingsObjectKey(result.requestId()));
            case SPEECH -> result.result().withObjectAt(key.audioObjectKey(result.requestId()));
        };
        return new CacheEntry(key.hex(), result.requestId(), result.task(), result.model(), result.modelVersion(),
                output, now, result.clientRequestId());
    }

    /**
     * True when this entry may answer a job of {@code task} keyed {@code key} under {@code modelVersion}: the key
     * already covers both, and the entry says so too, so a stored object that disagrees can only be a miss.
     */
    public boolean answers(CacheKey expected, String expectedVersion, Task expectedTask) {
        return key.equals(expected.hex()) && modelVersion.equals(expectedVersion) && task == expectedTask;
    }

    /**
     * The cached result of {@code job} on {@code tier}: this entry's output, naming the job's own copy of its object
     * (audio, or vectors) under the key derived from the job's id.
     */
    public JobResult answer(InferenceJob job, Tier tier, Instant now) {
        JobResult.Output answered = switch (task) {
            case GENERATE -> output;
            case EMBED -> output.withObjectAt(JobLayout.embeddingsKey(job.requestId()));
            case SPEECH -> output.withObjectAt(JobLayout.audioKey(job.requestId()));
        };
        return new JobResult(job.requestId(), JobStatus.SUCCEEDED, job.task(), answered, null, tier, model,
                modelVersion, null, null, null, null, job.callbackUrl(), now, true,
                clientRequestId != null ? clientRequestId : requestId, null, null, null, job.owner(),
                job.clientRequestId());
    }
}
