package io.gpupipe.adapters.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import java.time.Clock;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * {@link DeliveryLedger} as small JSON objects under {@code notifications/}, written create-only
 * ({@link S3Objects#createOnly}), so concurrent or repeated records agree on one entry: the first record wins.
 */
public final class S3DeliveryLedger implements DeliveryLedger {
    static final String PUBLISHED = "published";
    static final String CALLBACK = "callback";
    static final String UNDELIVERABLE = "undeliverable";

    private final S3Objects objects;
    private final Clock clock;

    /** {@code objects} names a default bucket; each record names its own. */
    public S3DeliveryLedger(S3Objects objects, Clock clock) {
        this.objects = objects;
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
        return objects.inBucket(bucket).read(key).map(bytes -> JobJson.read(bytes.asUtf8String(), JsonNode.class));
    }

    private void create(String bucket, String key, String json) {
        objects.inBucket(bucket).createOnly(key, "application/json", RequestBody.fromString(json));
    }
}
