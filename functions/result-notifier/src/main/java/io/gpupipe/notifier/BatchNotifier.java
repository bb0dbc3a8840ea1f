package io.gpupipe.notifier;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobResult;
import io.gpupipe.model.batch.BatchEvent;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.ChunkProgress;
import io.gpupipe.model.batch.LineOutcome;
import io.gpupipe.model.notify.CallbackDelivery;
import io.gpupipe.model.notify.RecordOutcome;
import io.gpupipe.submission.LineLedger;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.adapters.exception.QueueUnavailableException;
import io.gpupipe.adapters.exception.StoreUnavailableException;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The notifier's part in batches. A batch line's result is recorded as its line ending ({@link LineLedger}: a done
 * record, the chunk's progress, and CHUNK_ENDED to the batch queue once the chunk's last line ended), instead of a
 * job event per line. A batch's terminal record, written once by its finalizer, becomes the one {@link BatchEvent}:
 * to the success topic (completed) or the error topic, and signed to its callback_url, each at most once.
 */
@ApplicationScoped
public class BatchNotifier {
    private final S3Client s3;
    private final S3Presigner presigner;
    private final Optional<SqsBatchTasks> tasks;
    private final ResultStore store;
    private final CallbackSender callbacks;
    private final OnceDeliveries deliveries;
    private final String successTopic;
    private final String errorTopic;

    BatchNotifier(NotifierConfig config, S3Client s3, S3Presigner presigner, SqsClient sqs, ResultStore store,
                  CallbackSender callbacks, OnceDeliveries deliveries) {
        this.s3 = s3;
        this.presigner = presigner;
        this.tasks = config.batchQueueUrl().filter(url -> !url.isBlank()).map(url -> new SqsBatchTasks(sqs, url));
        this.store = store;
        this.callbacks = callbacks;
        this.deliveries = deliveries;
        this.successTopic = config.successTopicArn();
        this.errorTopic = config.errorTopicArn();
    }

    /** The result of a batch line's job was written: record the line as ended. */
    public RecordOutcome lineEnded(String bucket, String key, JobResult result) {
        if (tasks.isEmpty()) {
            return new RecordOutcome.Failed(key, "result of batch " + result.batch().batchId() + " line "
                    + result.batch().line() + " not recorded: no batch queue (GPUPIPE_NOTIFIER_BATCH_QUEUE_URL)",
                    false);
        }
        LineLedger ledger = new LineLedger(new S3BatchStore(s3, presigner, bucket), tasks.get());
        try {
            ChunkProgress progress = ledger.record(result.batch(), LineOutcome.of(result));
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
        BatchState terminal;
        try {
            terminal = JobJson.read(body.get(), BatchState.class);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return new RecordOutcome.Skipped(key, "object is not a batch record: " + e.getMessage());
        }
        if (!terminal.id().equals(batchId) || !terminal.status().isTerminal()) {
            return new RecordOutcome.Skipped(key, "not the terminal record of batch " + batchId);
        }
        BatchEvent event = BatchEvent.of(terminal);
        String json = event.toJson();
        if (terminal.callbackUrl() != null) {
            callbacks.requireSecret();
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("kind", "batch");
        attributes.put("status", terminal.status().wireName());
        String messageId = deliveries.publish(bucket, batchId, event.isSuccess() ? successTopic : errorTopic, json,
                attributes);
        CallbackDelivery callback = terminal.callbackUrl() == null ? CallbackDelivery.none()
                : deliveries.callback(bucket, batchId, terminal.callbackUrl(), json);
        return new RecordOutcome.Notified(key, batchId, terminal.status().wireName(), messageId, callback);
    }
}
