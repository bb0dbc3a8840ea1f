package io.gpupipe.notifier;

import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackSignature;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;

/**
 * Sends an event at most once per document, whether a job's result or a batch's terminal record: the SNS publish
 * and the delivered callback are each recorded in the {@link DeliveryLedger} under the document's id, so a retried or
 * duplicated S3 event skips what already went out.
 */
@ApplicationScoped
public class OnceDeliveries {
    private final EventPublisher publisher;
    private final CallbackSender callbacks;
    private final DeliveryLedger ledger;

    OnceDeliveries(EventPublisher publisher, CallbackSender callbacks, DeliveryLedger ledger) {
        this.publisher = publisher;
        this.callbacks = callbacks;
        this.ledger = ledger;
    }

    /** Publishes {@code json} to {@code topic} unless it was published for {@code id}; the SNS message id. */
    public String publish(String bucket, String id, String topic, String json, Map<String, String> attributes) {
        Optional<String> earlier = ledger.publishedMessageId(bucket, id);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        String messageId = publisher.publish(topic, json, attributes);
        ledger.recordPublished(bucket, id, messageId);
        return messageId;
    }

    /**
     * Sends the signed {@code json} to {@code url} unless it was delivered for {@code id}; its {@code webhook-id} is
     * derived from {@code id}, so a redelivery ({@link CallbackRedeliverer}) carries the same one.
     */
    public CallbackDelivery callback(String bucket, String id, String url, String json) {
        if (ledger.callbackDelivered(bucket, id)) {
            return new CallbackDelivery(CallbackDelivery.Status.DELIVERED, 0, null, "delivered earlier");
        }
        CallbackDelivery callback = callbacks.send(url, CallbackSignature.messageId(bucket, id), json);
        if (callback.status() == CallbackDelivery.Status.DELIVERED) {
            ledger.recordCallbackDelivered(bucket, id, callback.lastHttpStatus());
        }
        return callback;
    }
}
