package io.gpupipe.notifier;

import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.adapters.JsonLines;
import io.gpupipe.adapters.ResultStore;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchEvent;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.notifier.domain.BatchRecord;
import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.notifier.domain.CallbackRedelivery;
import io.gpupipe.notifier.domain.RecordOutcome;
import io.gpupipe.notifier.domain.ResultDocument;
import io.gpupipe.notifier.domain.ResultEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * Callback delivery through the callback queue, apart from the result's own invocation: a job's or a batch's callback
 * is handed to the queue at once ({@link #callback}), so a receiver that is slow or never answers holds none of the slots that
 * publish other callers' result events. Each message of the queue is one attempt ({@link CallbackSender#redeliver});
 * one that failed retryably is queued again with a growing delay ({@link CallbackRedelivery}); each sends the result
 * event again (never the SNS message) unless the ledger says it was delivered; at the deadline, or on a final refusal,
 * the callback is recorded undeliverable where an operator sees it. Every message is sent in its job owner's message
 * group, so on a fair queue one caller's failing callbacks do not delay another caller's.
 */
@ApplicationScoped
public class CallbackRedeliverer {
    private final CallbackSender callbacks;
    private final OnceDeliveries deliveries;
    private final CallbackRetryQueue queue;
    private final DeliveryLedger ledger;
    private final ResultStore store;
    private final JsonLines lines;
    private final Clock clock;
    private final CallbackRedelivery policy;

    CallbackRedeliverer(NotifierConfig config, CallbackSender callbacks, OnceDeliveries deliveries,
                        CallbackRetryQueue queue, DeliveryLedger ledger, ResultStore store, JsonLines lines,
                        Clock clock) {
        this.callbacks = callbacks;
        this.deliveries = deliveries;
        this.queue = queue;
        this.ledger = ledger;
        this.store = store;
        this.lines = lines;
        this.clock = clock;
        this.policy = new CallbackRedelivery(config.callback().redeliveryFirstDelay(),
                config.callback().redeliveryGiveUpAfter());
    }

    /**
     * The callback of document {@code id} (a job's result or a batch's terminal record, stored at {@code key}) to
     * {@code url} ({@code null}: none), whose body is {@code json}: handed to the callback queue ({@link #handOff}), or,
     * without a queue configured, sent here with the in-run attempts.
     */
    public CallbackDelivery callback(String bucket, String key, String id, String url, String owner, String json) {
        if (url == null) {
            return CallbackDelivery.none();
        }
        return queue.isConfigured() ? handOff(bucket, key, id, url, owner) : deliveries.callback(bucket, id, url, json);
    }

    /**
     * Hands the callback to the callback queue, in {@code owner}'s message group, to be tried at once by its consumer;
     * nothing is sent to the receiver here. QUEUED, or DELIVERED when an earlier try delivered it, or REFUSED when
     * the URL is refused on sight (its addresses are checked by the consumer, at send).
     */
    private CallbackDelivery handOff(String bucket, String key, String id, String url, String owner) {
        Optional<CallbackDelivery> refused = callbacks.refusedOnSight(url);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (ledger.callbackDelivered(bucket, id)) {
            return new CallbackDelivery(CallbackDelivery.Status.DELIVERED, 0, null, "delivered earlier");
        }
        queue.schedule(new CallbackRedelivery.Message(bucket, key, id, 0, clock.instant()), owner, Duration.ZERO);
        return CallbackDelivery.queued();
    }

    /**
     * A batch of the callback queue's messages, all tried at once: however many receivers hang, the batch lasts one
     * attempt, and each invocation the queue's mapping runs makes as many attempts at a time as its batch holds. When
     * one fails (S3 or SQS), the batch fails once every message has been tried, so SQS keeps its messages; what was
     * delivered is in the ledger and not sent again.
     */
    public List<RecordOutcome> redeliverAll(List<String> bodies) {
        // two messages of one document (a duplicated hand-off) are tried one after the other, so the second finds
        // the first's delivery in the ledger rather than sending the event a second time
        Map<String, List<Integer>> byDocument = new LinkedHashMap<>();
        for (int i = 0; i < bodies.size(); i++) {
            CallbackRedelivery.Message message = JobJson.read(bodies.get(i), CallbackRedelivery.Message.class);
            byDocument.computeIfAbsent(message.bucket() + "/" + message.requestId(), k -> new ArrayList<>()).add(i);
        }
        RecordOutcome[] outcomes = new RecordOutcome[bodies.size()];
        ExecutorService attempts = Executors.newFixedThreadPool(byDocument.size());
        try {
            List<Future<?>> running = byDocument.values().stream().map(indexes -> attempts.submit(() -> indexes
                    .forEach(i -> outcomes[i] = redeliver(bodies.get(i))))).collect(Collectors.toList());
            RuntimeException failure = null;
            for (Future<?> attempt : running) {
                try {
                    attempt.get();
                } catch (ExecutionException e) {
                    failure = failure != null ? failure : e.getCause() instanceof RuntimeException cause ? cause
                            : new IllegalStateException(e.getCause());
                }
            }
            if (failure != null) {
                throw failure;
            }
            return List.of(outcomes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while delivering callbacks", e);
        } finally {
            attempts.shutdownNow();
        }
    }

    /** One message of the callback queue: one attempt. */
    public RecordOutcome redeliver(String body) {
        CallbackRedelivery.Message message = JobJson.read(body, CallbackRedelivery.Message.class);
        Target target = target(message);
        if (target instanceof Target.Nothing nothing) {
            return new RecordOutcome.Skipped(message.key(), nothing.reason());
        }
        Target.Send send = (Target.Send) target;
        CallbackDelivery delivery;
        if (ledger.callbackDelivered(message.bucket(), message.requestId())) {
            delivery = new CallbackDelivery(CallbackDelivery.Status.DELIVERED, 0, null, "delivered earlier");
        } else {
            delivery = callbacks.redeliver(send.url(), CallbackSignature.messageId(message.bucket(),
                    message.requestId()), send.json());
            if (delivery.status() == CallbackDelivery.Status.DELIVERED) {
                ledger.recordCallbackDelivered(message.bucket(), message.requestId(), delivery.lastHttpStatus());
            } else if (callbacks.worthRedelivering(delivery)) {
                scheduleOrGiveUp(message.next(), send, delivery);
            } else {
                giveUp(message, send.url(), delivery);
            }
        }
        return new RecordOutcome.Notified(message.key(), message.requestId(), send.status(), null, delivery);
    }

    /** What a queued message's document says to send, or why there is nothing to send. */
    private sealed interface Target {
        record Send(String url, String owner, String json, String status) implements Target {
        }

        record Nothing(String reason) implements Target {
        }
    }

    private Target target(CallbackRedelivery.Message message) {
        Optional<String> text = store.read(message.bucket(), message.key());
        if (text.isEmpty()) {
            return new Target.Nothing("object is missing");
        }
        Optional<String> batchId = BatchLayout.batchIdOfFinalKey(message.key());
        if (batchId.isPresent()) {
            BatchRecord.Parsed parsed = BatchRecord.parse(text.get(), batchId.get());
            if (parsed instanceof BatchRecord.Parsed.Unusable unusable) {
                return new Target.Nothing(unusable.reason());
            }
            BatchState terminal = ((BatchRecord.Parsed.Usable) parsed).terminal();
            return terminal.callbackUrl() == null ? new Target.Nothing("batch has no callback_url")
                    : new Target.Send(terminal.callbackUrl(), terminal.owner(), BatchEvent.of(terminal).toJson(),
                    terminal.status().wireName());
        }
        ResultDocument.Parsed parsed = ResultDocument.parse(text.get(), message.requestId());
        if (parsed instanceof ResultDocument.Parsed.Unusable unusable) {
            return new Target.Nothing(unusable.reason());
        }
        JobResult result = ((ResultDocument.Parsed.Usable) parsed).result();
        return result.callbackUrl() == null ? new Target.Nothing("result has no callbackUrl")
                : new Target.Send(result.callbackUrl(), result.owner(), ResultEvent.of(result, message.bucket(),
                message.key()).toJson(), result.status().wireName());
    }

    private void scheduleOrGiveUp(CallbackRedelivery.Message message, Target.Send send, CallbackDelivery last) {
        Optional<Duration> delay = policy.delayBefore(message.redelivery(), message.firstFailedAt(),
                clock.instant());
        if (delay.isPresent()) {
            queue.schedule(message, send.owner(), delay.get());
        } else {
            giveUp(message, send.url(), last);
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
