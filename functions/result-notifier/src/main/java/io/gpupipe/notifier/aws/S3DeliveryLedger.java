package io.gpupipe.notifier.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import io.gpupipe.notifier.DeliveryLedger;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@link DeliveryLedger} as small JSON objects under {@code notifications/}, written with {@code If-None-Match: *}
 * (S3 conditional writes: 412 when the object exists), so concurrent or repeated records agree on one entry.
 */
@ApplicationScoped
public class S3DeliveryLedger implements DeliveryLedger {
    static final String PUBLISHED = "published";
    static final String CALLBACK = "callback";
    static final String UNDELIVERABLE = "undeliverable";
    private static final int PRECONDITION_FAILED = 412;

    private final S3Client s3;
    private final Clock clock;

    S3DeliveryLedger(S3Client s3, Clock clock) {
        this.s3 = s3;
        this.clock = clock;
    }

    @Override
    public Optional<String> publishedMessageId(String bucket, String requestId) {
        return read(bucket, JobLayout.notificationKey(requestId, PUBLISHED))
                .map(entry -> entry.path("messageId").asText(""));
    }

    @Override
    public void recordPublished(String bucket, String requestId, String messageId) {
        create(bucket, JobLayout.notificationKey(requestId, PUBLISHED), JobJson.mapper().createObjectNode()
                .put("messageId", messageId).put("at", clock.instant().toString()).toString());
    }

    @Override
    public boolean callbackDelivered(String bucket, String requestId) {
        return read(bucket, JobLayout.notificationKey(requestId, CALLBACK)).isPresent();
    }

    @Override
    public void recordCallbackDelivered(String bucket, String requestId, int httpStatus) {
        create(bucket, JobLayout.notificationKey(requestId, CALLBACK), JobJson.mapper().createObjectNode()
                .put("httpStatus", httpStatus).put("at", clock.instant().toString()).toString());
    }

    @Override
    public void recordUndeliverable(String bucket, String requestId, String url, String detail) {
        create(bucket, JobLayout.notificationKey(requestId, UNDELIVERABLE), JobJson.mapper().createObjectNode()
                .put("requestId", requestId).put("callbackUrl", url).put("detail", detail)
                .put("at", clock.instant().toString()).toString());
    }

    private Optional<JsonNode> read(String bucket, String key) {
        try {
            return Optional.of(JobJson.read(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String(),
                    JsonNode.class));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw AwsErrors.translate("reading s3://" + bucket + "/" + key, e);
        }
    }

    private void create(String bucket, String key, String json) {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key).contentType("application/json").ifNoneMatch("*"),
                    RequestBody.fromString(json));
        } catch (S3Exception e) {
            if (e.statusCode() != PRECONDITION_FAILED) {
                throw AwsErrors.translate("writing s3://" + bucket + "/" + key, e);
            }
        } catch (SdkException e) {
            throw AwsErrors.translate("writing s3://" + bucket + "/" + key, e);
        }
    }
}
