package io.gpupipe.adapters.aws;

import io.gpupipe.adapters.ResultStore;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link ResultStore} on S3 ({@link S3Objects}). */
public final class S3ResultStore implements ResultStore {
    private final S3Client s3;

    public S3ResultStore(S3Client s3) {
        this.s3 = s3;
    }

    @Override
    public Optional<String> read(String bucket, String key) {
        return new S3Objects(s3, null, bucket).read(key).map(bytes -> bytes.asString(StandardCharsets.UTF_8));
    }
}
