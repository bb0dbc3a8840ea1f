package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.BatchStore;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The per-caller limit on unfinished batches ({@link OwnerQuotas}, {@link QuotaKind#BATCHES}): a batch is
 * counted once its record is created and no longer counted once its terminal record lands (the notifier) or its
 * creation is taken back. A full ledger's oldest entries are re-checked: a batch with a terminal record, or none at
 * all, has ended. A caller whose unfinished batches already hold its cap of lines ({@link BatchLinesQuota}) is refused
 * first: no batch of any size would fit.
 */
public final class OwnerBatchQuota implements BatchQuota {
    private static final Logger LOG = Logger.getLogger(OwnerBatchQuota.class);

    private final OwnerQuotas quotas;
    private final OwnerQuotas.Limit limit;
    private final BatchStore store;
    private final BatchLinesQuota lines;

    /**
     * At most {@code limit} unfinished batches per caller, counted in {@code quotas}, re-checked in {@code store}, and
     * none while the caller's unfinished batches hold its cap of {@code lines}.
     */
    public OwnerBatchQuota(OwnerQuotas quotas, OwnerQuotas.Limit limit, BatchStore store, BatchLinesQuota lines) {
        this.quotas = quotas;
        this.limit = limit;
        this.store = store;
        this.lines = lines;
    }

    @Override
    public Optional<OwnerQuotas.Admission.Refused> admit(BatchState batch) {
        Owner owner = batch.ownedBy();
        if (!owner.isCaller()) {
            return Optional.empty();
        }
        Optional<OwnerQuotas.Admission.Refused> noLinesLeft = lines.full(owner);
        if (noLinesLeft.isPresent()) {
            return noLinesLeft;
        }
        OwnerQuotas.Admission admission = quotas.admit(owner, QuotaKind.BATCHES, batch.id(), limit,
                this::stillUnfinished);
        return admission instanceof OwnerQuotas.Admission.Refused refused ? Optional.of(refused) : Optional.empty();
    }

    @Override
    public void released(BatchState batch) {
        if (!batch.ownedBy().isCaller()) {
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
