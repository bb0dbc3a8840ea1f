package io.gpupipe.notifier.aws;

import io.gpupipe.notifier.ResultStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** {@link ResultStore} on the Quarkus-managed S3 client. */
@ApplicationScoped
public class S3ResultStore implements ResultStore {
    private final S3Client s3;

    S3ResultStore(S3Client s3) {
        this.s3 = s3;
    }

    @Override
    public Optional<String> read(String bucket, String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asString(StandardCharsets.UTF_8));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw AwsErrors.translate("reading s3://" + bucket + "/" + key, e);
        }
    }
}
