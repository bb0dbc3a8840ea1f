package io.gpupipe.notifier;

import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.adapters.JsonLines;
import io.gpupipe.adapters.ResultStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobResult;
import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.notifier.domain.CallbackRedelivery;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.notifier.domain.RecordOutcome;
import io.gpupipe.notifier.domain.ResultDocument;
import io.gpupipe.notifier.domain.ResultEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The durable half of callback delivery: a callback whose attempts failed retryably is queued for redelivery with a
 * growing delay ({@link CallbackRedelivery}); each redelivery sends the result event again (never the SNS message)
 * unless the ledger says it was delivered; at the deadline, or on a final refusal, the callback is recorded
 * undeliverable where an operator sees it.
 */
@ApplicationScoped
public class CallbackRedeliverer {
    private final CallbackSender callbacks;
    private final CallbackRetryQueue queue;
    private final DeliveryLedger ledger;
    private final ResultStore store;
    private final JsonLines lines;
    private final Clock clock;
    private final CallbackRedelivery policy;

    CallbackRedeliverer(NotifierConfig config, CallbackSender callbacks, CallbackRetryQueue queue,
                        DeliveryLedger ledger, ResultStore store, JsonLines lines, Clock clock) {
        this.callbacks = callbacks;
        this.queue = queue;
        this.ledger = ledger;
        this.store = store;
        this.lines = lines;
        this.clock = clock;
        this.policy = new CallbackRedelivery(config.callback().redeliveryFirstDelay(),
                config.callback().redeliveryGiveUpAfter());
    }

    /** After a record's callback failed: queue the first redelivery when it may still succeed. */
    public void afterFirstFailure(String bucket, String key, JobResult result, CallbackDelivery delivery) {
        if (callbacks.worthRedelivering(delivery) && queue.isConfigured()) {
            Instant now = clock.instant();
            scheduleOrGiveUp(new CallbackRedelivery.Message(bucket, key, result.requestId(), 1, now),
                    result.callbackUrl(), delivery);
        }
    }

    /** One message of the retry queue. */
    public RecordOutcome redeliver(String body) {
        CallbackRedelivery.Message message = JobJson.read(body, CallbackRedelivery.Message.class);
        Optional<String> text = store.read(message.bucket(), message.key());
        if (text.isEmpty()) {
            return new RecordOutcome.Skipped(message.key(), "object is missing");
        }
        ResultDocument.Parsed parsed = ResultDocument.parse(text.get(), message.requestId());
        if (parsed instanceof ResultDocument.Parsed.Unusable) {
            return new RecordOutcome.Skipped(message.key(), ((ResultDocument.Parsed.Unusable) parsed).reason());
        }
        JobResult result = ((ResultDocument.Parsed.Usable) parsed).result();
        if (result.callbackUrl() == null) {
            return new RecordOutcome.Skipped(message.key(), "result has no callbackUrl");
        }
        CallbackDelivery delivery;
        if (ledger.callbackDelivered(message.bucket(), message.requestId())) {
            delivery = new CallbackDelivery(CallbackDelivery.Status.DELIVERED, 0, null, "delivered earlier");
        } else {
            delivery = callbacks.redeliver(result.callbackUrl(), CallbackSignature.messageId(message.bucket(),
                    message.requestId()), ResultEvent.of(result, message.bucket(), message.key()).toJson());
            if (delivery.status() == CallbackDelivery.Status.DELIVERED) {
                ledger.recordCallbackDelivered(message.bucket(), message.requestId(), delivery.lastHttpStatus());
            } else if (callbacks.worthRedelivering(delivery)) {
                scheduleOrGiveUp(message.next(), result.callbackUrl(), delivery);
            } else {
                giveUp(message, result.callbackUrl(), delivery);
            }
        }
        return new RecordOutcome.Notified(message.key(), message.requestId(), result.status().wireName(), null,
                delivery);
    }

    private void scheduleOrGiveUp(CallbackRedelivery.Message message, String url, CallbackDelivery last) {
        Optional<Duration> delay = policy.delayBefore(message.redelivery(), message.firstFailedAt(),
                clock.instant());
        if (delay.isPresent()) {
            queue.schedule(message, delay.get());
        } else {
            giveUp(message, url, last);
        }
    }

    private void giveUp(CallbackRedelivery.Message message, String url, CallbackDelivery last) {
        String detail = "gave up after " + message.redelivery() + " redelivery(ies) since " + message.firstFailedAt()
                + ": " + last.detail();
        ledger.recordUndeliverable(message.bucket(), message.requestId(), url, detail);
        lines.emit(JobJson.mapper().createObjectNode().put("level", "ERROR").put("event", "callback-undeliverable")
                .put("requestId", message.requestId()).put("key", message.key()).put("detail", detail).toString());
    }
}
