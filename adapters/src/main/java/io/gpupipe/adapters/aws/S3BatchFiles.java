package io.gpupipe.adapters.aws;

import io.gpupipe.adapters.BatchFiles;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.ChunkManifest;
import io.gpupipe.model.job.JobResult;
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

/**
 * {@link BatchFiles} on S3 (job results read through {@link S3JobStore}, S3's answers by {@link S3Objects}). A chunk reads only its bytes (GetObject with a Range); the
 * final files are streamed part after part into a multipart upload of 8 MiB parts ("Each part must be at least 5 MB
 * in size, except the last part", UploadPart, Amazon S3 API Reference), so a 200 MB output never sits in memory.
 */
public final class S3BatchFiles implements BatchFiles {
    static final int PART_BYTES = 8 * 1024 * 1024;
    private static final String JSONL = "application/jsonl";
    private static final int COPY_BUFFER_BYTES = 64 * 1024;

    private final S3Client s3;
    private final S3Objects objects;
    private final S3JobStore jobs;
    private final String bucket;

    public S3BatchFiles(S3Client s3, String bucket) {
        this.s3 = s3;
        this.objects = new S3Objects(s3, null, bucket);
        this.jobs = new S3JobStore(objects);
        this.bucket = bucket;
    }

    @Override
    public InputStream open(String key, long start, long end) {
        return objects.open(key, start, end);
    }

    @Override
    public InputStream open(String key) {
        return objects.open(key).orElseThrow(() -> new StoreUnavailableException("cannot read s3://" + bucket + "/"
                + key + ": it is not there", null));
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
        return jobs.readResultWithEmbeddings(requestId);
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
                Optional<InputStream> in = objects.open(part);
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
}
