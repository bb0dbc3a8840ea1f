package io.gpupipe.adapters;

import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.job.JobResult;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The batch function's objects beyond the records: the input file (streamed, or a chunk's byte range), the chunk
 * manifests, the job results, and the part and final output files. Failures to reach S3 throw
 * {@link io.gpupipe.jobs.port.StoreUnavailableException}.
 */
public interface BatchFiles {
    /** The bytes {@code [start, end)} of the object at {@code key}, as a stream the caller closes. */
    InputStream open(String key, long start, long end);

    /** The whole object at {@code key}, as a stream the caller closes. */
    InputStream open(String key);

    Optional<ChunkManifest> readManifest(String batchId, int chunk);

    /** Writes the manifest only if none exists (a redelivered chunk finds the first one's, which is the same). */
    void createManifest(ChunkManifest manifest);

    /**
     * The job's result, an embedding job's vectors inline even when the worker kept them in their own object (an
     * output line carries the whole embedding response); empty until both are readable.
     */
    Optional<JobResult> readResult(String requestId);

    /** Writes (or rewrites: the content is the same) the object at {@code key}. */
    void put(String key, byte[] content);

    /**
     * Writes at {@code key} the concatenation of the objects at {@code parts}, streamed (S3 multipart upload for a
     * large file); writes nothing when they hold no byte. Returns the bytes written.
     */
    long concatenate(String key, List<String> parts);
}
