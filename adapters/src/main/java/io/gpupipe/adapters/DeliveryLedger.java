package io.gpupipe.adapters;

import java.util.Optional;

/**
 * What already went out for a result, kept next to it in the results bucket, so a retried or duplicated S3 event
 * never sends it again: the SNS message id once published, and whether the callback was delivered.
 */
public interface DeliveryLedger {
    /** The id of the SNS message already published for this result, if any. */
    Optional<String> publishedMessageId(String bucket, String requestId);

    /** Records the publish (create-only: the first record wins). */
    void recordPublished(String bucket, String requestId, String messageId);

    /** True when the callback was already delivered. */
    boolean callbackDelivered(String bucket, String requestId);

    /** Records the delivered callback (create-only). */
    void recordCallbackDelivered(String bucket, String requestId, int httpStatus);

    /** Records that the callback was given up: where an operator finds it (create-only). */
    void recordUndeliverable(String bucket, String requestId, String url, String detail);
}
