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
import java.util.Optional;

/**
 * Callback delivery through the callback queue, apart from the result's own invocation: a result's callback is handed
 * to the queue at once ({@link #handOff}), so a receiver that is slow or never answers holds none of the slots that
 * publish other callers' result events. Each message of the queue is one attempt ({@link CallbackSender#redeliver});
 * one that failed retryably is queued again with a growing delay ({@link CallbackRedelivery}); each sends the result
 * event again (never the SNS message) unless the ledger says it was delivered; at the deadline, or on a final refusal,
 * the callback is recorded undeliverable where an operator sees it. Every message is sent in its job owner's message
 * group, so on a fair queue one caller's failing callbacks do not delay another caller's.
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

    /** True when a callback queue is configured; without one, callbacks are sent within the result's invocation. */
    public boolean isQueueing() {
        return queue.isConfigured();
    }

    /**
     * Hands the callback of {@code result} (stored at {@code key}) to the callback queue, to be tried at once by its
     * consumer; nothing is sent to the receiver here. QUEUED, or DELIVERED when an earlier try delivered it, or
     * REFUSED when the URL is refused on sight (its addresses are checked by the consumer, at send).
     */
    public CallbackDelivery handOff(String bucket, String key, JobResult result) {
        Optional<CallbackDelivery> refused = callbacks.refusedOnSight(result.callbackUrl());
        if (refused.isPresent()) {
            return refused.get();
        }
        if (ledger.callbackDelivered(bucket, result.requestId())) {
            return new CallbackDelivery(CallbackDelivery.Status.DELIVERED, 0, null, "delivered earlier");
        }
        queue.schedule(new CallbackRedelivery.Message(bucket, key, result.requestId(), 0, clock.instant()),
                result.owner(), Duration.ZERO);
        return CallbackDelivery.queued();
    }

    /** One message of the callback queue: one attempt. */
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
                scheduleOrGiveUp(message.next(), result, delivery);
            } else {
                giveUp(message, result.callbackUrl(), delivery);
            }
        }
        return new RecordOutcome.Notified(message.key(), message.requestId(), result.status().wireName(), null,
                delivery);
    }

    private void scheduleOrGiveUp(CallbackRedelivery.Message message, JobResult result, CallbackDelivery last) {
        Optional<Duration> delay = policy.delayBefore(message.redelivery(), message.firstFailedAt(),
                clock.instant());
        if (delay.isPresent()) {
            queue.schedule(message, result.owner(), delay.get());
        } else {
            giveUp(message, result.callbackUrl(), last);
        }
    }

    private void giveUp(CallbackRedelivery.Message message, String url, CallbackDelivery last) {
        String detail = "gave up after " + (message.redelivery() + 1) + " attempt(s) from the callback queue since "
                + message.firstFailedAt() + ": " + last.detail();
        ledger.recordUndeliverable(message.bucket(), message.requestId(), url, detail);
        lines.emit(JobJson.mapper().createObjectNode().put("level", "ERROR").put("event", "callback-undeliverable")
                .put("requestId", message.requestId()).put("key", message.key()).put("detail", detail).toString());
    }
}
