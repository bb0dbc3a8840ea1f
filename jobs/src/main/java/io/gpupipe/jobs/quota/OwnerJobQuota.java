package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The per-caller limit on unfinished jobs ({@link OwnerQuotas}, {@link QuotaKind#JOBS}): a job is counted
 * once its marker is claimed and before it is sent, and no longer counted once its result lands (the notifier), it
 * is cancelled, or its submission is taken back. A full ledger's oldest entries are re-checked against the store: a
 * job with a result, a cancelled marker or no marker at all has ended, whatever became of its release.
 */
public final class OwnerJobQuota implements JobQuota {
    private static final Logger LOG = Logger.getLogger(OwnerJobQuota.class);

    private final OwnerQuotas quotas;
    private final OwnerQuotas.Limit limit;
    private final JobStore store;

    /** At most {@code limit} unfinished jobs per caller, counted in {@code quotas}, re-checked in {@code store}. */
    public OwnerJobQuota(OwnerQuotas quotas, OwnerQuotas.Limit limit, JobStore store) {
        this.quotas = quotas;
        this.limit = limit;
        this.store = store;
    }

    @Override
    public Optional<OwnerQuotas.Admission.Refused> admit(InferenceJob job) {
        Owner owner = job.owner() == null ? Owner.QUEUE : new Owner(job.owner());
        if (!owner.isCaller()) {
            return Optional.empty();
        }
        OwnerQuotas.Admission admission = quotas.admit(owner, QuotaKind.JOBS, job.requestId(), limit,
                this::stillUnfinished);
        return admission instanceof OwnerQuotas.Admission.Refused refused ? Optional.of(refused) : Optional.empty();
    }

    @Override
    public void released(Owner owner, String id) {
        if (!owner.isCaller()) {
            return;
        }
        try {
            quotas.release(owner, QuotaKind.JOBS, id);
        } catch (StoreUnavailableException e) {
            LOG.warnf("job %s ended but still counts against its owner's limit until re-checked: %s", id,
                    e.getMessage());
        }
    }

    /** Queued or running with no result: only such a job still holds a slot. */
    private boolean stillUnfinished(String id) {
        Optional<JobView> view = store.view(id);
        return view.isPresent() && view.get().result() == null && (view.get().status() == JobStatus.QUEUED
                || view.get().status() == JobStatus.RUNNING);
    }
}
