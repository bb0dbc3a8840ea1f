package io.gpupipe.adapters.aws;

import io.gpupipe.adapters.ResultStore;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** {@link ResultStore} on S3 ({@link S3Objects}). */
public final class S3ResultStore implements ResultStore {
    private final S3Objects objects;

    /** {@code objects} names a default bucket; each read names its own. */
    public S3ResultStore(S3Objects objects) {
        this.objects = objects;
    }

    @Override
    public Optional<String> read(String bucket, String key) {
        return objects.inBucket(bucket).read(key).map(bytes -> bytes.asString(StandardCharsets.UTF_8));
    }
}
