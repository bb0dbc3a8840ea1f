package io.gpupipe.notifier;

import io.gpupipe.adapters.ResultStore;
import io.gpupipe.jobs.LineLedger;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.QuotaReleases;
import io.gpupipe.model.batch.BatchEvent;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.ChunkProgress;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.notifier.domain.BatchRecord;
import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.notifier.domain.RecordOutcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The notifier's part in batches. A batch line's result is recorded as its line ending ({@link LineLedger}: a done
 * record, the chunk's progress, and CHUNK_ENDED to the batch queue once the chunk's last line ended), instead of a
 * job event per line. A batch's terminal record, written once by its finalizer, becomes the one {@link BatchEvent}:
 * to the success topic (completed) or the error topic, and its callback_url handed to the callback queue, like a
 * job's ({@link CallbackRedeliverer}), each at most once; then the
 * batch no longer counts against its owner's limit on unfinished batches.
 */
@ApplicationScoped
public class BatchNotifier {
    private final LineLedgers ledgers;
    private final ResultStore store;
    private final CallbackSender sender;
    private final CallbackRedeliverer callbacks;
    private final OnceDeliveries deliveries;
    private final QuotaReleases quotas;
    private final String successTopic;
    private final String errorTopic;

    BatchNotifier(NotifierConfig config, LineLedgers ledgers, ResultStore store, CallbackSender sender,
                  CallbackRedeliverer callbacks, OnceDeliveries deliveries, QuotaReleases quotas) {
        this.quotas = quotas;
        this.ledgers = ledgers;
        this.store = store;
        this.sender = sender;
        this.callbacks = callbacks;
        this.deliveries = deliveries;
        this.successTopic = config.successTopicArn();
        this.errorTopic = config.errorTopicArn();
    }

    /** The result of a batch line's job was written: record the line as ended. */
    public RecordOutcome lineEnded(String bucket, String key, JobResult result) {
        Optional<LineLedger> ledger = ledgers.in(bucket);
        if (ledger.isEmpty()) {
            return new RecordOutcome.Failed(key, "result of batch " + result.batch().batchId() + " line "
                    + result.batch().line() + " not recorded: no batch queue (GPUPIPE_NOTIFIER_BATCH_QUEUE_URL)",
                    false);
        }
        try {
            ChunkProgress progress = ledger.get().record(result.batch(), LineOutcome.of(result));
            return new RecordOutcome.Notified(key, result.requestId(), result.status().wireName(), null,
                    new CallbackDelivery(CallbackDelivery.Status.NONE, 0, null, "batch " + result.batch().batchId()
                            + " chunk " + result.batch().chunk() + ": " + progress.outcomes().size() + " of "
                            + result.batch().chunkLines() + " lines ended"));
        } catch (StoreUnavailableException | QueueUnavailableException e) {
            return new RecordOutcome.Failed(key, e.getMessage(), true);
        }
    }

    /** A batch's terminal record was written: its one event. */
    public RecordOutcome batchFinished(String bucket, String key, String batchId) {
        Optional<String> body = store.read(bucket, key);
        if (body.isEmpty()) {
            return new RecordOutcome.Skipped(key, "object is missing");
        }
        BatchRecord.Parsed parsed = BatchRecord.parse(body.get(), batchId);
        if (parsed instanceof BatchRecord.Parsed.Unusable unusable) {
            return new RecordOutcome.Skipped(key, unusable.reason());
        }
        BatchState terminal = ((BatchRecord.Parsed.Usable) parsed).terminal();
        BatchEvent event = BatchEvent.of(terminal);
        String json = event.toJson();
        if (terminal.callbackUrl() != null) {
            sender.requireSecret();
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("kind", "batch");
        attributes.put("status", terminal.status().wireName());
        if (terminal.owner() != null) {
            attributes.put("owner", terminal.owner());
        }
        String messageId = deliveries.publish(bucket, batchId, event.isSuccess() ? successTopic : errorTopic, json,
                attributes);
        CallbackDelivery callback = callbacks.callback(bucket, key, batchId, terminal.callbackUrl(), terminal.owner(),
                json);
        // the batch has ended: it and its lines no longer count against its owner's limits on unfinished batches
        quotas.release(bucket, terminal.owner(), QuotaKind.BATCHES, batchId);
        quotas.release(bucket, terminal.owner(), QuotaKind.BATCH_LINES, batchId);
        return new RecordOutcome.Notified(key, batchId, terminal.status().wireName(), messageId, callback);
    }
}
