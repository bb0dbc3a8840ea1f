package io.gpupipe.router.internal;

import io.gpupipe.adapters.BatchStore;
import io.gpupipe.adapters.exception.StoreUnavailableException;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.quota.QuotaKind;
import io.gpupipe.router.BatchOutcome;
import io.gpupipe.submission.OwnerQuotas;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The router's per-caller limit on unfinished batches ({@link OwnerQuotas}, {@link QuotaKind#BATCHES}): a batch is
 * counted once its record is created and no longer counted once its terminal record lands (the notifier) or its
 * creation is taken back. A full ledger's oldest entries are re-checked: a batch with a terminal record, or none at
 * all, has ended.
 */
public final class BatchQuota {
    private static final Logger LOG = Logger.getLogger(BatchQuota.class);

    private final OwnerQuotas quotas;
    private final OwnerQuotas.Limit limit;
    private final BatchStore store;

    public BatchQuota(OwnerQuotas quotas, OwnerQuotas.Limit limit, BatchStore store) {
        this.quotas = quotas;
        this.limit = limit;
        this.store = store;
    }

    /** No limit on unfinished batches. */
    public static BatchQuota unlimited() {
        return new BatchQuota(null, null, null);
    }

    /**
     * Empty when the batch may go on (it is counted now); the refusal when its owner is at the limit.
     *
     * @throws StoreUnavailableException when the count cannot be read or written
     */
    public Optional<BatchOutcome.QuotaExceeded> admit(BatchState batch) {
        Owner owner = batch.ownedBy();
        if (quotas == null || !owner.isCaller()) {
            return Optional.empty();
        }
        OwnerQuotas.Admission admission = quotas.admit(owner, QuotaKind.BATCHES, batch.id(), limit,
                this::stillUnfinished);
        if (admission instanceof OwnerQuotas.Admission.Refused refused) {
            return Optional.of(new BatchOutcome.QuotaExceeded(refused.limit(), refused.retryAfter()));
        }
        return Optional.empty();
    }

    /** The batch was not accepted after all: stop counting it; never throws. */
    public void released(BatchState batch) {
        if (quotas == null || !batch.ownedBy().isCaller()) {
            return;
        }
        try {
            quotas.release(batch.ownedBy(), QuotaKind.BATCHES, batch.id());
        } catch (StoreUnavailableException e) {
            LOG.warnf("batch %s was taken back but still counts against its owner's limit until re-checked: %s",
                    batch.id(), e.getMessage());
        }
    }

    private boolean stillUnfinished(String batchId) {
        return store.read(batchId).isPresent() && store.readFinal(batchId).isEmpty();
    }
}
