package io.gpupipe.batch.aws;

import io.gpupipe.batch.BatchConfig;
import io.gpupipe.batch.BatchFiles;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.submission.exception.StoreUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@link BatchFiles} on the Quarkus-managed S3 client. A chunk reads only its bytes (GetObject with a Range); the
 * final files are streamed part after part into a multipart upload of 8 MiB parts ("Each part must be at least 5 MB
 * in size, except the last part", UploadPart, Amazon S3 API Reference), so a 200 MB output never sits in memory.
 */
@ApplicationScoped
public class S3BatchFiles implements BatchFiles {
    static final int PART_BYTES = 8 * 1024 * 1024;
    private static final int PRECONDITION_FAILED = 412;
    private static final int CONFLICT = 409;
    private static final int NOT_FOUND = 404;

    private final S3Client s3;
    private final String bucket;

    S3BatchFiles(S3Client s3, BatchConfig config) {
        this.s3 = s3;
        this.bucket = config.bucket();
    }

    @Override
    public Optional<Long> size(String key) {
        try {
            return Optional.of(s3.headObject(b -> b.bucket(bucket).key(key)).contentLength());
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return Optional.empty();
            }
            throw unavailable("read", key, e);
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    @Override
    public InputStream open(String key, long start, long end) {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key).range("bytes=" + start + "-" + (end - 1)));
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    @Override
    public InputStream open(String key) {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key));
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    @Override
    public Optional<ChunkManifest> readManifest(String batchId, int chunk) {
        return read(BatchLayout.manifestKey(batchId, chunk)).map(json -> JobJson.read(json, ChunkManifest.class));
    }

    @Override
    public void createManifest(ChunkManifest manifest) {
        String key = BatchLayout.manifestKey(manifest.batchId(), manifest.chunk());
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/json").ifNoneMatch("*"),
                    RequestBody.fromString(JobJson.write(manifest)));
        } catch (S3Exception e) {
            if (e.statusCode() != PRECONDITION_FAILED && e.statusCode() != CONFLICT) {
                throw unavailable("write", key, e);
            }
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    @Override
    public Optional<JobResult> readResult(String requestId) {
        return read(JobLayout.resultKey(requestId)).map(json -> JobJson.read(json, JobResult.class));
    }

    @Override
    public void put(String key, byte[] content) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/jsonl"),
                    RequestBody.fromBytes(content));
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    @Override
    public long concatenate(String key, List<String> parts) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        List<CompletedPart> uploaded = new ArrayList<>();
        String uploadId = null;
        long total = 0;
        try {
            for (String part : parts) {
                Optional<InputStream> in = openIfPresent(part);
                if (in.isEmpty()) {
                    continue;
                }
                try (InputStream stream = in.get()) {
                    byte[] chunk = new byte[64 * 1024];
                    for (int n = stream.read(chunk); n >= 0; n = stream.read(chunk)) {
                        buffer.write(chunk, 0, n);
                        total += n;
                        if (buffer.size() >= PART_BYTES) {
                            uploadId = uploadId != null ? uploadId
                                    : s3.createMultipartUpload(b -> b.bucket(bucket).key(key)
                                    .contentType("application/jsonl")).uploadId();
                            uploaded.add(uploadPart(key, uploadId, uploaded.size() + 1, buffer.toByteArray()));
                            buffer.reset();
                        }
                    }
                }
            }
            if (uploadId == null) {
                if (total > 0) {
                    put(key, buffer.toByteArray());
                }
                return total;
            }
            if (buffer.size() > 0) {
                uploaded.add(uploadPart(key, uploadId, uploaded.size() + 1, buffer.toByteArray()));
            }
            String id = uploadId;
            s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id)
                    .multipartUpload(m -> m.parts(uploaded)));
            return total;
        } catch (IOException e) {
            throw new UncheckedIOException("assembling " + key, e);
        } catch (SdkException e) {
            throw unavailable("write", key, e);
        }
    }

    private CompletedPart uploadPart(String key, String uploadId, int number, byte[] bytes) {
        String eTag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                RequestBody.fromBytes(bytes)).eTag();
        return CompletedPart.builder().partNumber(number).eTag(eTag).build();
    }

    private Optional<InputStream> openIfPresent(String key) {
        try {
            return Optional.of(s3.getObject(b -> b.bucket(bucket).key(key)));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    private Optional<String> read(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw unavailable("read", key, e);
        }
    }

    private StoreUnavailableException unavailable(String action, String key, SdkException e) {
        return new StoreUnavailableException("cannot " + action + " s3://" + bucket + "/" + key + ": "
                + e.getMessage(), e);
    }
}
