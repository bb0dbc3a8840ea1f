package io.gpupipe.adapters.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import java.time.Clock;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@link DeliveryLedger} as small JSON objects under {@code notifications/}, written create-only
 * ({@link S3Objects#createOnly}), so concurrent or repeated records agree on one entry: the first record wins.
 */
public final class S3DeliveryLedger implements DeliveryLedger {
    static final String PUBLISHED = "published";
    static final String CALLBACK = "callback";
    static final String UNDELIVERABLE = "undeliverable";

    private final S3Client s3;
    private final Clock clock;

    /** Each record names its bucket (the bucket of the S3 event being notified). */
    public S3DeliveryLedger(S3Client s3, Clock clock) {
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
        return new S3Objects(s3, null, bucket).read(key)
                .map(bytes -> JobJson.read(bytes.asUtf8String(), JsonNode.class));
    }

    private void create(String bucket, String key, String json) {
        new S3Objects(s3, null, bucket).createOnly(key, "application/json", RequestBody.fromString(json));
    }
}
