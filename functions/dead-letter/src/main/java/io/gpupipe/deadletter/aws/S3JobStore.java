package io.gpupipe.deadletter.aws;

import io.gpupipe.deadletter.DeadLetterConfig;
import io.gpupipe.deadletter.JobStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.JobState;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** {@link JobStore} on the Quarkus-managed S3 client. */
@ApplicationScoped
public class S3JobStore implements JobStore {
    private static final int PRECONDITION_FAILED = 412;

    private final S3Client s3;
    private final String bucket;

    S3JobStore(S3Client s3, DeadLetterConfig config) {
        this.s3 = s3;
        this.bucket = config.bucket();
    }

    @Override
    public Optional<JobState> readMarker(String requestId) {
        String body;
        try {
            body = s3.getObjectAsBytes(b -> b.bucket(bucket).key(JobLayout.markerKey(requestId))).asUtf8String();
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(JobJson.read(body, JobState.class));
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** If-None-Match: * (S3 conditional writes): 412 means a result exists, which is never overwritten. */
    @Override
    public boolean putResultIfAbsent(JobResult result) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(JobLayout.resultKey(result.requestId()))
                    .contentType("application/json").ifNoneMatch("*"), RequestBody.fromString(JobJson.write(result)));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == PRECONDITION_FAILED) {
                return false;
            }
            throw e;
        }
    }
}
