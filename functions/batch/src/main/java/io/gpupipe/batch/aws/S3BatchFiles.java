package io.gpupipe.batch.aws;

import io.gpupipe.batch.BatchConfig;
import io.gpupipe.batch.BatchFiles;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.submission.aws.S3Objects;
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

/**
 * {@link BatchFiles} on the Quarkus-managed S3 client. A chunk reads only its bytes (GetObject with a Range); the
 * final files are streamed part after part into a multipart upload of 8 MiB parts ("Each part must be at least 5 MB
 * in size, except the last part", UploadPart, Amazon S3 API Reference), so a 200 MB output never sits in memory.
 */
@ApplicationScoped
public class S3BatchFiles implements BatchFiles {
    static final int PART_BYTES = 8 * 1024 * 1024;
    private static final String JSONL = "application/jsonl";
    private static final int COPY_BUFFER_BYTES = 64 * 1024;

    private final S3Client s3;
    private final S3Objects objects;
    private final String bucket;

    S3BatchFiles(S3Client s3, BatchConfig config) {
        this.s3 = s3;
        this.objects = new S3Objects(s3, null, config.bucket());
        this.bucket = config.bucket();
    }

    @Override
    public InputStream open(String key, long start, long end) {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key).range("bytes=" + start + "-" + (end - 1)));
        } catch (SdkException e) {
            throw objects.unavailable("read", key, e);
        }
    }

    @Override
    public InputStream open(String key) {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key));
        } catch (SdkException e) {
            throw objects.unavailable("read", key, e);
        }
    }

    @Override
    public Optional<ChunkManifest> readManifest(String batchId, int chunk) {
        return objects.read(BatchLayout.manifestKey(batchId, chunk))
                .map(bytes -> JobJson.read(bytes.asUtf8String(), ChunkManifest.class));
    }

    @Override
    public void createManifest(ChunkManifest manifest) {
        objects.createOnly(BatchLayout.manifestKey(manifest.batchId(), manifest.chunk()), "application/json",
                RequestBody.fromString(JobJson.write(manifest)));
    }

    @Override
    public Optional<JobResult> readResult(String requestId) {
        return objects.read(JobLayout.resultKey(requestId))
                .map(bytes -> JobJson.read(bytes.asUtf8String(), JobResult.class));
    }

    @Override
    public void put(String key, byte[] content) {
        objects.put(key, JSONL, RequestBody.fromBytes(content));
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
                    byte[] chunk = new byte[COPY_BUFFER_BYTES];
                    for (int n = stream.read(chunk); n >= 0; n = stream.read(chunk)) {
                        buffer.write(chunk, 0, n);
                        total += n;
                        if (buffer.size() >= PART_BYTES) {
                            uploadId = uploadId != null ? uploadId : s3.createMultipartUpload(b -> b.bucket(bucket)
                                    .key(key).contentType(JSONL)).uploadId();
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
            throw objects.unavailable("write", key, e);
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
}
