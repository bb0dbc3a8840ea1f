package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The per-caller cap on the lines of unfinished batches ({@link OwnerQuotas}, {@link QuotaKind#BATCH_LINES}): a
 * batch is counted, weighing its line count, once its input is read (the batch function's plan), and no longer once
 * its terminal record lands (the notifier: completed, failed, expired or cancelled). A full ledger's oldest entries
 * are re-checked: a batch with a terminal record, or none at all, has ended. The router refuses a new batch while
 * the caller's count has already reached the cap; a batch whose lines would take the count over it fails at
 * validation, as OpenAI's batches do over their enqueued-token limit.
 */
public final class BatchLinesQuota {
    /** The default cap: ten batches of the largest size ({@code BatchLimits.MAX_LINES}) at once. */
    public static final String DEFAULT_MAX_LINES = "1000000";
    /**
     * The longest a batch stays unfinished (its lines' SQS retention of 14 days, plus a day: the router's
     * {@code quota.entry-lifetime} default); an older entry drops however its batch ended.
     */
    public static final java.time.Duration LIFETIME = java.time.Duration.ofDays(15);
    /** No cap: nothing is counted. */
    public static final BatchLinesQuota UNLIMITED = new BatchLinesQuota(null, null, null);

    private static final Logger LOG = Logger.getLogger(BatchLinesQuota.class);

    private final OwnerQuotas quotas;
    private final OwnerQuotas.Limit limit;
    private final BatchStore store;

    /** At most {@code limit.max()} lines of unfinished batches per caller, counted in {@code quotas}. */
    public BatchLinesQuota(OwnerQuotas quotas, OwnerQuotas.Limit limit, BatchStore store) {
        this.quotas = quotas;
        this.limit = limit;
        this.store = store;
    }

    /**
     * Counts {@code lines} of {@code batch} (once: a repeated plan counts nothing more). Empty when it fits; the
     * refusal, naming the cap, when the caller's unfinished lines would exceed it.
     *
     * @throws StoreUnavailableException when the count cannot be read or written
     */
    public Optional<OwnerQuotas.Admission.Refused> admit(BatchState batch, int lines) {
        Owner owner = batch.ownedBy();
        if (quotas == null || !owner.isCaller()) {
            return Optional.empty();
        }
        OwnerQuotas.Admission admission = quotas.admit(owner, QuotaKind.BATCH_LINES, batch.id(), lines, limit,
                this::stillUnfinished);
        return admission instanceof OwnerQuotas.Admission.Refused refused ? Optional.of(refused) : Optional.empty();
    }

    /**
     * The refusal when {@code owner}'s unfinished batches already hold the cap's lines (no batch of any size fits),
     * else empty.
     *
     * @throws StoreUnavailableException when the count cannot be read
     */
    public Optional<OwnerQuotas.Admission.Refused> full(Owner owner) {
        if (quotas == null || !owner.isCaller()
                || quotas.counted(owner, QuotaKind.BATCH_LINES, limit.lifetime()) < limit.max()) {
            return Optional.empty();
        }
        return Optional.of(new OwnerQuotas.Admission.Refused(QuotaKind.BATCH_LINES, limit.max(), limit.retryAfter()));
    }

    /** The most lines of unfinished batches per caller. */
    public int max() {
        return limit == null ? Integer.MAX_VALUE : limit.max();
    }

    private boolean stillUnfinished(String batchId) {
        boolean unfinished = store.read(batchId).isPresent() && store.readFinal(batchId).isEmpty();
        if (!unfinished) {
            LOG.debugf("batch %s has ended: its lines no longer count", batchId);
        }
        return unfinished;
    }
}
