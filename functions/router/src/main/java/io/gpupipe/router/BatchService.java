package io.gpupipe.router;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.BatchTasks;
import io.gpupipe.jobs.port.OwnedBatchStore;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.jobs.quota.BatchQuota;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchObject;
import io.gpupipe.model.batch.BatchPlanner;
import io.gpupipe.model.batch.BatchProgress;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchRequestParser;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchStatus;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.batch.RequestCounts;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.router.internal.UploadGrants;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The batch API's use cases. Creating records the batch (create-only) and hands the work to the batch function
 * through the batch queue (the router never reads the input: 100,000 lines do not fit a 15 s request). Status costs a
 * bounded number of S3 calls whatever the batch's size: the record, one listing of ended chunks, one of the running
 * chunks' progress (counts are in the keys), and the terminal record once every chunk ended. Cancel marks the batch
 * cancelling and lets the batch function cancel its queued lines. Every call is one caller's ({@link Owner}): its
 * uploads are keyed by its owner, a batch reads only its own caller's upload, and another caller's batch reads as
 * absent ({@link BatchStore#ownedBy}). A caller has at most a configured number of unfinished batches.
 */
public final class BatchService {
    private static final Logger LOG = Logger.getLogger(BatchService.class);

    private final BatchStore store;
    private final Optional<BatchTasks> tasks;
    private final Clock clock;
    private final Duration uploadTtl;
    private final Duration presignTtl;
    private final Supplier<UUID> ids;
    private final BatchQuota quota;
    private final UploadGrants uploads;

    /** A batch service without a limit on unfinished batches. */
    public BatchService(BatchStore store, Optional<BatchTasks> tasks, Clock clock, Duration uploadTtl,
                        Duration presignTtl, Supplier<UUID> ids) {
        this(store, tasks, clock, uploadTtl, presignTtl, ids, BatchQuota.UNLIMITED);
    }

    /** {@code tasks} empty: the deployment has no batch queue, and the batch endpoints answer 503. */
    public BatchService(BatchStore store, Optional<BatchTasks> tasks, Clock clock, Duration uploadTtl,
                        Duration presignTtl, Supplier<UUID> ids, BatchQuota quota) {
        this(store, tasks, clock, uploadTtl, presignTtl, ids, quota, UploadGrants.unlimited());
    }

    /** {@code uploads}: the per-caller limit on upload URLs. */
    public BatchService(BatchStore store, Optional<BatchTasks> tasks, Clock clock, Duration uploadTtl,
                        Duration presignTtl, Supplier<UUID> ids, BatchQuota quota, UploadGrants uploads) {
        this.uploads = uploads;
        this.store = store;
        this.tasks = tasks;
        this.clock = clock;
        this.uploadTtl = uploadTtl;
        this.presignTtl = presignTtl;
        this.ids = ids;
        this.quota = quota;
    }

    /**
     * A key to upload an input file to (only {@code owner}'s batches may read it), and its presigned PUT of exactly
     * the {@code bytes} the request declares; refused over the caller's hourly number of upload URLs.
     */
    public UploadOutcome upload(Owner owner, String body) {
        UploadRequest.Parsed parsed = UploadRequest.parse(body);
        if (!parsed.errors().isEmpty()) {
            return new UploadOutcome.Rejected(parsed.errors());
        }
        UUID upload = ids.get();
        Optional<Duration> wait = uploads.take(owner, upload);
        if (wait.isPresent()) {
            return new UploadOutcome.TooMany(uploads.perHour(), wait.get());
        }
        long bytes = parsed.request().orElseThrow().bytes();
        String key = BatchLayout.inputKey(owner, upload);
        return new UploadOutcome.Granted(new UploadResponse(key, store.presignPut(key, uploadTtl, bytes).toString(),
                "PUT", clock.instant().plus(uploadTtl).getEpochSecond(), bytes));
    }

    public BatchOutcome create(String body, Owner owner) {
        if (tasks.isEmpty()) {
            return notEnabled();
        }
        BatchRequestParser.Outcome parsed = BatchRequestParser.parse(body);
        if (parsed instanceof BatchRequestParser.Outcome.Invalid invalid) {
            return new BatchOutcome.Rejected(invalid.errors());
        }
        BatchRequest request = ((BatchRequestParser.Outcome.Valid) parsed).request();
        // another caller's upload is answered as one that does not exist
        Optional<Long> size = BatchLayout.isInputKeyOf(request.inputFileId(), owner)
                ? store.size(request.inputFileId()) : Optional.empty();
        if (size.isEmpty()) {
            return rejected("input_file_id", ErrorCodes.INVALID_VALUE, "no file was uploaded to "
                    + request.inputFileId() + " (PUT it to the upload_url of POST /v1/batches/uploads first)");
        }
        if (BatchPlanner.checkSize(size.get()).isPresent()) {
            return rejected("input_file_id", ErrorCodes.TOO_LONG, "the input file has " + size.get()
                    + " bytes; at most " + BatchLimits.MAX_FILE_BYTES + " are allowed");
        }
        BatchState state = BatchState.created(BatchIds.newBatchId(ids.get()), request, owner, clock.instant());
        BatchOutcome accepted = accept(state);
        if (accepted instanceof BatchOutcome.Found) {
            LOG.infof("batch %s created from %s (%d bytes) for %s", state.id(), request.inputFileId(), size.get(),
                    request.endpoint().path());
        }
        return accepted;
    }

    /**
     * Records a new batch create-only, counts it against its caller's limit and hands it to the batch queue: the
     * batch object, or why it was not accepted (its record then taken back). Every new batch goes through here.
     */
    BatchOutcome accept(BatchState state) {
        String eTag = store.create(state).orElseThrow(() -> new IllegalStateException("batch id " + state.id()
                + " already taken"));
        Optional<BatchOutcome> refused = admit(state, eTag);
        if (refused.isPresent()) {
            return refused.get();
        }
        try {
            tasks.orElseThrow().send(BatchTask.of(BatchTask.Type.PLAN, state.id()));
        } catch (QueueUnavailableException e) {
            LOG.errorf("batch %s not accepted, the batch queue is unavailable: %s", state.id(), e.getMessage());
            takeBack(state, eTag);
            return new BatchOutcome.Unavailable("the batch queue is unavailable; the batch was not accepted, retry "
                    + "later");
        }
        return new BatchOutcome.Found(render(store, state));
    }

    /** True when the deployment has a batch queue. */
    boolean enabled() {
        return tasks.isPresent();
    }

    /** Counts the new batch against its caller's limit; refused (or failing), its record is taken back. */
    private Optional<BatchOutcome> admit(BatchState state, String eTag) {
        Optional<BatchOutcome.QuotaExceeded> refused;
        try {
            refused = quota.admit(state).map(limit -> new BatchOutcome.QuotaExceeded(limit.kind(), limit.limit(),
                    limit.retryAfter()));
        } catch (StoreUnavailableException e) {
            takeBack(state, eTag);
            throw e;
        }
        if (refused.isPresent()) {
            LOG.infof("batch %s refused: its owner has %d %s", state.id(), refused.get().limit(),
                    refused.get().kind().counted());
            if (!store.delete(state.id(), eTag)) {
                LOG.infof("the record of refused batch %s was already changed; left in place", state.id());
            }
        }
        return refused.map(BatchOutcome.class::cast);
    }

    /** Deletes the record of a batch that was not accepted, and stops counting it. */
    private void takeBack(BatchState state, String eTag) {
        if (store.delete(state.id(), eTag)) {
            quota.released(state);
        } else {
            LOG.infof("the record of unaccepted batch %s was already changed; left in place", state.id());
        }
    }

    public BatchOutcome get(String rawId, CallerOwners owners) {
        if (!BatchIds.isValidBatchId(rawId)) {
            return new BatchOutcome.InvalidId();
        }
        BatchStore owned = new OwnedBatchStore(store, owners);
        return owned.read(rawId).<BatchOutcome>map(stored -> new BatchOutcome.Found(render(owned,
                stored.state()))).orElseGet(() -> new BatchOutcome.NotFound(rawId));
    }

    /**
     * Marks a running batch cancelling and asks the batch function to cancel its queued lines; repeated while it is
     * cancelling, it asks again (the fan-out is idempotent), so a retry after a 503 completes the cancel.
     */
    public BatchOutcome cancel(String rawId, CallerOwners owners) {
        if (!BatchIds.isValidBatchId(rawId)) {
            return new BatchOutcome.InvalidId();
        }
        if (tasks.isEmpty()) {
            return notEnabled();
        }
        Instant now = clock.instant();
        BatchStore owned = new OwnedBatchStore(store, owners);
        Optional<BatchState> state = owned.update(rawId, s -> s.isCancellable() ? Optional.of(s.cancelling(now))
                : Optional.empty());
        if (state.isEmpty()) {
            return new BatchOutcome.NotFound(rawId);
        }
        BatchStatus status = state.get().status();
        if (status == BatchStatus.CANCELLING) {
            try {
                tasks.get().send(BatchTask.of(BatchTask.Type.CANCEL, rawId));
            } catch (QueueUnavailableException e) {
                LOG.errorf("cancel of batch %s not yet handed on: %s", rawId, e.getMessage());
                return new BatchOutcome.Unavailable("the batch queue is unavailable; the batch reads cancelling, "
                        + "retry the cancel");
            }
        }
        BatchObject shown = render(owned, state.get());
        boolean cancellable = status == BatchStatus.CANCELLING || status == BatchStatus.CANCELLED;
        return cancellable ? new BatchOutcome.Found(shown) : new BatchOutcome.NotCancellable(shown);
    }

    /** The batch object with its counts now, and presigned links to its files once finished. */
    BatchObject render(BatchStore view, BatchState state) {
        if (state.status().isTerminal()) {
            return finished(state);
        }
        if (state.plan() == null) {
            return BatchObject.of(state, RequestCounts.NONE, state.status(), BatchObject.Links.NONE);
        }
        BatchProgress progress = BatchProgress.ofKeys(view.list(BatchLayout.endedPrefix(state.id())),
                view.list(BatchLayout.progressPrefix(state.id())));
        if (progress.allEnded(state.plan())) {
            Optional<BatchState> terminal = view.readFinal(state.id());
            if (terminal.isPresent()) {
                return finished(terminal.get());
            }
        }
        return BatchObject.of(state, progress.counts().toRequestCounts(state.plan().lines()),
                progress.shownStatus(state), BatchObject.Links.NONE);
    }

    private BatchObject finished(BatchState terminal) {
        BatchObject.Links links = new BatchObject.Links(
                terminal.outputFileId() == null ? null : store.presignGet(terminal.outputFileId(), presignTtl),
                terminal.errorFileId() == null ? null : store.presignGet(terminal.errorFileId(), presignTtl),
                terminal.outputFileId() == null && terminal.errorFileId() == null ? null
                        : clock.instant().plus(presignTtl));
        return BatchObject.of(terminal, terminal.counts() == null ? RequestCounts.NONE : terminal.counts(),
                terminal.status(), links);
    }

    private static BatchOutcome rejected(String field, String code, String message) {
        return new BatchOutcome.Rejected(List.of(new FieldError(field, code, message)));
    }

    static BatchOutcome notEnabled() {
        return new BatchOutcome.Unavailable("batches are not enabled in this deployment (no batch queue: "
                + "GPUPIPE_ROUTER_BATCH_QUEUE_URL)");
    }
}
