package io.gpupipe.router;

import io.gpupipe.model.job.JobView;
import java.net.URL;
import java.time.Instant;

/** What a status lookup found. */
public sealed interface StatusOutcome {
    /** The job and, once it finished, presigned links to its result (and WAV for speech). */
    record Found(JobView view, ResultLinks links) implements StatusOutcome {
    }

    /** Neither marker nor result exists (404). */
    record NotFound(String requestId) implements StatusOutcome {
    }

    /** The path does not hold a UUID v4 (400). */
    record InvalidId(String raw) implements StatusOutcome {
    }

    /**
     * Presigned GET URLs of the result (and WAV, or embedding vectors kept in their own object) and the same objects'
     * S3 URIs ({@code s3://bucket/key}, the key under the job's stored id); all null while the job has not finished.
     */
    record ResultLinks(URL result, URL audio, String resultLocation, String audioLocation, URL embeddings,
                       String embeddingsLocation, Instant expiresAt) {
        public static final ResultLinks NONE = new ResultLinks(null, null, null, null, null, null, null);
    }
}
