package io.gpupipe.notifier;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.adapters.JsonLines;
import io.gpupipe.adapters.ResultStore;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.QuotaReleases;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.observability.LogFields;
import io.gpupipe.notifier.domain.BatchReport;
import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.notifier.domain.RecordOutcome;
import io.gpupipe.notifier.domain.ResultDocument;
import io.gpupipe.notifier.domain.ResultEvent;
import io.gpupipe.notifier.event.S3EventNotification;
import io.gpupipe.notifier.exception.NotifierAwsException;
import io.gpupipe.telemetry.SpanAttributes;
import io.gpupipe.telemetry.Traces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.MDC;

/**
 * Handles each record of an S3 event on its own: reads {@code results/{id}.json}, publishes the compact
 * {@link ResultEvent} to the success or error topic, then hands its callback to the callback queue
 * ({@link CallbackRedeliverer}; without a queue configured, sends it here). A batch line's result
 * and a batch's terminal record ({@code batches/{id}/final.json}) go to the {@link BatchNotifier}. A record that cannot
 * be notified (missing object, not JSON, not a result key) is logged and skipped; a failing record never stops the
 * others. One structured log line per record.
 *
 * <p>A record is safe to retry: the signing key is resolved before anything is published (a Secrets Manager error
 * fails the record with nothing sent), and each step that went out (SNS publish, delivered callback) is recorded in
 * the {@link DeliveryLedger}, so a retried or duplicated event skips it. A crash between a send and its record can
 * still repeat that one step (at least once, never lost). Once notified, the job no longer counts against its owner's
 * limit on unfinished jobs ({@link QuotaReleases}); a release that fails fails the record (retried, idempotent).
 * Every result, a batch line's too, is counted in its caller's usage ({@link UsageAccounting}; idempotent as well).
 */
@ApplicationScoped
public class ResultNotifier {
    static final String NOTIFY_SPAN = "result notify";
    private final ResultStore store;
    private final CallbackSender callbacks;
    private final OnceDeliveries deliveries;
    private final BatchNotifier batches;
    private final CallbackRedeliverer redeliverer;
    private final JsonLines lines;
    private final QuotaReleases quotas;
    private final UsageAccounting usage;
    private final String successTopic;
    private final String errorTopic;
    private final Tracer tracer;

    ResultNotifier(NotifierConfig config, ResultStore store, CallbackSender callbacks, OnceDeliveries deliveries,
                   BatchNotifier batches, CallbackRedeliverer redeliverer, JsonLines lines, QuotaReleases quotas,
                   UsageAccounting usage, Tracer tracer) {
        this.quotas = quotas;
        this.usage = usage;
        this.tracer = tracer;
        this.store = store;
        this.callbacks = callbacks;
        this.deliveries = deliveries;
        this.batches = batches;
        this.redeliverer = redeliverer;
        this.lines = lines;
        this.successTopic = config.successTopicArn();
        this.errorTopic = config.errorTopicArn();
    }

    public BatchReport notify(S3EventNotification event) {
        List<S3EventNotification.Record> records = event.records();
        if (!records.isEmpty() && records.stream().allMatch(S3EventNotification.Record::isRedelivery)) {
            // not caught: a delivery that fails must fail the invocation, so SQS keeps its messages
            List<RecordOutcome> outcomes = redeliverer.redeliverAll(records.stream()
                    .map(S3EventNotification.Record::body).toList());
            outcomes.forEach(outcome -> lines.emit(logLine(outcome)));
            return BatchReport.of(outcomes);
        }
        List<RecordOutcome> outcomes = new ArrayList<>();
        for (S3EventNotification.Record record : records) {
            RecordOutcome outcome = handleSafely(record);
            lines.emit(logLine(outcome));
            outcomes.add(outcome);
        }
        return BatchReport.of(outcomes);
    }

    private RecordOutcome handleSafely(S3EventNotification.Record record) {
        if (record.isRedelivery()) {
            // not caught: a redelivery that fails must fail the invocation, so SQS keeps its message
            return redeliverer.redeliver(record.body());
        }
        String key = record.encodedKey() == null ? "" : ResultDocument.decodeKey(record.encodedKey());
        try {
            return handle(record, key);
        } catch (NotifierAwsException e) {
            return new RecordOutcome.Failed(key, e.getMessage(), e.retryable());
        } catch (StoreUnavailableException e) {
            return new RecordOutcome.Failed(key, e.getMessage(), e.retryable());
        } catch (RuntimeException e) {
            return new RecordOutcome.Failed(key, "unexpected " + e.getClass().getSimpleName() + ": "
                    + e.getMessage(), false);
        }
    }

    private RecordOutcome handle(S3EventNotification.Record record, String key) {
        if (record.bucket() == null || key.isEmpty()) {
            return new RecordOutcome.Skipped(key, "record names no bucket or key");
        }
        if (record.eventName() != null && !record.eventName().startsWith("ObjectCreated:")) {
            return new RecordOutcome.Skipped(key, "not an ObjectCreated event: " + record.eventName());
        }
        Optional<String> batchId = BatchLayout.batchIdOfFinalKey(key);
        if (batchId.isPresent()) {
            return batches.batchFinished(record.bucket(), key, batchId.get());
        }
        Optional<String> requestId = ResultDocument.requestIdOfKey(key);
        if (requestId.isEmpty()) {
            return new RecordOutcome.Skipped(key, "not a results/{requestId}.json key");
        }
        Optional<String> body = store.read(record.bucket(), key);
        if (body.isEmpty()) {
            return new RecordOutcome.Skipped(key, "object is missing");
        }
        ResultDocument.Parsed parsed = ResultDocument.parse(body.get(), requestId.get());
        if (parsed instanceof ResultDocument.Parsed.Unusable) {
            return new RecordOutcome.Skipped(key, ((ResultDocument.Parsed.Unusable) parsed).reason());
        }
        JobResult result = ((ResultDocument.Parsed.Usable) parsed).result();
        if (result.batch() != null) {
            // a batch's lines send no event of their own: the batch sends one when its last line has ended
            usage.ended(record.bucket(), result);
            return batches.lineEnded(record.bucket(), key, result);
        }
        Span span = tracer.spanBuilder(NOTIFY_SPAN).setSpanKind(SpanKind.CONSUMER).setParent(Traces.parent(
                result.trace())).setAttribute(SpanAttributes.REQUEST_ID, result.requestId()).startSpan();
        MDC.put(LogFields.REQUEST_ID, result.requestId());
        try {
            return Traces.within(span, () -> {
                RecordOutcome.Notified notified = notify(record, key, result);
                quotas.release(record.bucket(), result.owner(), QuotaKind.JOBS, result.requestId());
                usage.ended(record.bucket(), result);
                span.setAttribute(SpanAttributes.OUTCOME, notified.callback().status().name()
                        .toLowerCase(Locale.ROOT));
                return notified;
            });
        } finally {
            MDC.remove(LogFields.REQUEST_ID);
        }
    }

    /** Publishes the result's event once and sends its callback once (the job's "result notify" span). */
    private RecordOutcome.Notified notify(S3EventNotification.Record record, String key, JobResult result) {
        ResultEvent event = ResultEvent.of(result, record.bucket(), key);
        String json = event.toJson();
        if (result.callbackUrl() != null) {
            callbacks.requireSecret();
        }
        String messageId = deliveries.publish(record.bucket(), result.requestId(),
                event.isSuccess() ? successTopic : errorTopic, json, attributes(event));
        // published first, and the callback handed to its queue: a receiver that never answers holds no slot here
        CallbackDelivery callback = redeliverer.callback(record.bucket(), key, result.requestId(),
                result.callbackUrl(), result.owner(), json);
        return new RecordOutcome.Notified(key, result.requestId(), result.status().wireName(), messageId, callback);
    }

    /** SNS message attributes, so subscriptions can filter by status, tier, task or owner. */
    private static Map<String, String> attributes(ResultEvent event) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("status", event.status().wireName());
        if (event.tier() != null) {
            attributes.put("tier", event.tier().wireName());
        }
        if (event.task() != null) {
            attributes.put("task", event.task().wireName());
        }
        if (event.owner() != null) {
            attributes.put("owner", event.owner());
        }
        return attributes;
    }

    private static String logLine(RecordOutcome outcome) {
        ObjectNode line = JobJson.mapper().createObjectNode();
        if (outcome instanceof RecordOutcome.Notified) {
            RecordOutcome.Notified n = (RecordOutcome.Notified) outcome;
            CallbackDelivery.Status callback = n.callback().status();
            boolean callbackProblem = callback == CallbackDelivery.Status.FAILED
                    || callback == CallbackDelivery.Status.REFUSED;
            line.put("level", callbackProblem ? "WARN" : "INFO").put("event", "result-notified")
                    .put("key", n.key()).put("requestId", n.requestId()).put("status", n.status())
                    .put("messageId", n.messageId()).put("callback", callback.name())
                    .put("callbackAttempts", n.callback().attempts());
            putIfPresent(line, "callbackHttpStatus", n.callback().lastHttpStatus());
            putIfPresent(line, "callbackDetail", n.callback().detail());
        } else if (outcome instanceof RecordOutcome.Skipped) {
            RecordOutcome.Skipped s = (RecordOutcome.Skipped) outcome;
            line.put("level", "WARN").put("event", "result-skipped").put("key", s.key()).put("reason", s.reason());
        } else {
            RecordOutcome.Failed f = (RecordOutcome.Failed) outcome;
            line.put("level", "ERROR").put("event", "result-failed").put("key", f.key()).put("reason", f.reason())
                    .put("retryable", f.retryable());
        }
        return line.toString();
    }

    private static void putIfPresent(ObjectNode line, String field, Object value) {
        if (value != null) {
            line.put(field, value.toString());
        }
    }
}
