package io.gpupipe.adapters.aws;

import io.gpupipe.adapters.MarkerSnapshot;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The job documents of the results bucket ({@link JobLayout}) on S3, for every role: the router and the batch
 * function ({@link JobStore}), the worker ({@link WorkerJobStore}), the dead-letter function and the router's cache
 * hits ({@link io.gpupipe.adapters.JobResults}). The marker is created with {@code If-None-Match: *} and rewritten
 * only over the version read ({@code If-Match: <etag>}), so a cancel landing in between is never overwritten.
 * Terminal objects are created once: when one is there already it is ours only if it holds exactly our bytes (the
 * SDK retried a PUT that S3 had stored). S3's answers are read by {@link S3Objects}.
 *
 * <p>Every marker and result is read and written here, through {@link #markerObject} and {@link #resultObject}, so a
 * rule over their fields that every reader must obey (e.g. whose job it is) has one place.
 */
public final class S3JobStore implements JobStore, WorkerJobStore {
    private static final Logger LOG = Logger.getLogger(S3JobStore.class);
    private static final String JSON = "application/json";

    private final S3Objects objects;

    public S3JobStore(S3Objects objects) {
        this.objects = objects;
    }

    /** {@code presigner} may be null where nothing is presigned. */
    public S3JobStore(S3Client s3, S3Presigner presigner, String bucket) {
        this(new S3Objects(s3, presigner, bucket));
    }

    /** A store that presigns nothing (the worker, the dead-letter function). */
    public S3JobStore(S3Client s3, String bucket) {
        this(s3, null, bucket);
    }

    @Override
    public Optional<String> createMarker(JobState marker) {
        return objects.createOnly(JobLayout.markerKey(marker.requestId()), JSON,
                RequestBody.fromString(JobJson.write(marker)));
    }

    @Override
    public Optional<StoredMarker> readMarker(String requestId) {
        return markerObject(requestId).map(bytes -> new StoredMarker(JobJson.read(bytes.asUtf8String(),
                JobState.class), bytes.response().eTag()));
    }

    /** An unreadable marker is a snapshot with its ETag but no state, so a rewrite still replaces that version. */
    @Override
    public MarkerSnapshot markerSnapshot(String requestId) {
        Optional<ResponseBytes<GetObjectResponse>> object = markerObject(requestId);
        if (object.isEmpty()) {
            return MarkerSnapshot.ABSENT;
        }
        String eTag = object.get().response().eTag();
        try {
            return MarkerSnapshot.of(JobJson.read(object.get().asUtf8String(), JobState.class), eTag);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            LOG.warnf("ignoring unreadable marker of %s: %s", requestId, e.getMessage());
            return new MarkerSnapshot(Optional.empty(), Optional.ofNullable(eTag));
        }
    }

    @Override
    public Optional<JobResult> readResult(String requestId) {
        return resultObject(requestId).map(bytes -> JobJson.read(bytes.asUtf8String(), JobResult.class));
    }

    @Override
    public boolean resultExists(String requestId) {
        return objects.size(JobLayout.resultKey(requestId)).isPresent();
    }

    @Override
    public boolean replaceMarker(JobState marker, String eTag) {
        return objects.replace(JobLayout.markerKey(marker.requestId()), JSON, JobJson.write(marker), eTag);
    }

    @Override
    public boolean replaceMarker(JobState marker, MarkerSnapshot expected) {
        return expected.eTag().map(eTag -> replaceMarker(marker, eTag))
                .orElseGet(() -> createMarker(marker).isPresent());
    }

    @Override
    public boolean deleteMarker(String requestId, String eTag) {
        return objects.delete(JobLayout.markerKey(requestId), eTag);
    }

    @Override
    public boolean putResultIfAbsent(JobResult result) {
        return createOnceOrOurs(JobLayout.resultKey(result.requestId()), JSON,
                JobJson.write(result).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean putAudioIfAbsent(String requestId, byte[] wav) {
        return createOnceOrOurs(JobLayout.audioKey(requestId), "audio/wav", wav);
    }

    @Override
    public boolean putEmbeddingsIfAbsent(String requestId, byte[] json) {
        return createOnceOrOurs(JobLayout.embeddingsKey(requestId), JSON, json);
    }

    /**
     * The result with an embedding job's vectors inline again when the worker kept them in their own object: read
     * from the key derived from {@code requestId}, never from a key the result names. Empty while there is no result,
     * and when the result names vectors whose object is gone (not readable: treated as not there yet).
     */
    public Optional<JobResult> readResultWithEmbeddings(String requestId) {
        Optional<JobResult> read = readResult(requestId);
        if (read.isEmpty() || read.get().result() == null || read.get().result().embeddingsKey() == null) {
            return read;
        }
        JobResult result = read.get();
        Optional<EmbeddingResponse> vectors = objects.read(JobLayout.embeddingsKey(requestId))
                .map(bytes -> JobJson.read(bytes.asUtf8String(), EmbeddingResponse.class));
        if (vectors.isEmpty()) {
            LOG.warnf("the result of %s names vectors at %s, which are not there", requestId,
                    JobLayout.embeddingsKey(requestId));
        }
        return vectors.map(v -> result.withOutput(result.result().withEmbeddingsInline(v)));
    }

    @Override
    public Optional<byte[]> readAudioHead(String requestId, int length) {
        return objects.readHead(JobLayout.audioKey(requestId), length);
    }

    @Override
    public void putPayload(String key, String json) {
        objects.put(key, JSON, RequestBody.fromString(json));
    }

    @Override
    public Optional<String> readPayload(String key) {
        return objects.read(key).map(ResponseBytes::asUtf8String);
    }

    @Override
    public URL presignGet(String key, Duration ttl) {
        return objects.presignGet(key, ttl);
    }

    @Override
    public String location(String key) {
        return objects.location(key);
    }

    private Optional<ResponseBytes<GetObjectResponse>> markerObject(String requestId) {
        return objects.read(JobLayout.markerKey(requestId));
    }

    private Optional<ResponseBytes<GetObjectResponse>> resultObject(String requestId) {
        return objects.read(JobLayout.resultKey(requestId));
    }

    private boolean createOnceOrOurs(String key, String contentType, byte[] body) {
        return objects.createOnly(key, contentType, RequestBody.fromBytes(body)).isPresent()
                || objects.read(key).map(stored -> Arrays.equals(body, stored.asByteArray())).orElse(false);
    }
}
