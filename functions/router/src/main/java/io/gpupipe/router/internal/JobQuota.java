package io.gpupipe.router.internal;

import io.gpupipe.adapters.JobStore;
import io.gpupipe.adapters.exception.StoreUnavailableException;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.JobView;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.quota.QuotaKind;
import io.gpupipe.submission.JobSubmitter;
import io.gpupipe.submission.OwnerQuotas;
import io.gpupipe.submission.SubmitOutcome;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The router's per-caller limit on unfinished jobs ({@link OwnerQuotas}, {@link QuotaKind#JOBS}): a job is counted
 * once its marker is claimed and before it is sent, and no longer counted once its result lands (the notifier), it
 * is cancelled, or its submission is taken back. A full ledger's oldest entries are re-checked against the store: a
 * job with a result, a cancelled marker or no marker at all has ended, whatever became of its release.
 */
public final class JobQuota implements JobSubmitter.Quota {
    private static final Logger LOG = Logger.getLogger(JobQuota.class);

    private final OwnerQuotas quotas;
    private final OwnerQuotas.Limit limit;
    private final JobStore store;

    public JobQuota(OwnerQuotas quotas, OwnerQuotas.Limit limit, JobStore store) {
        this.quotas = quotas;
        this.limit = limit;
        this.store = store;
    }

    /** No limit: every job may be sent (routers built without one, e.g. in tests of other paths). */
    public static JobQuota unlimited() {
        return new JobQuota(null, null, null);
    }

    @Override
    public Optional<SubmitOutcome.QuotaExceeded> admit(InferenceJob job) {
        Owner owner = job.owner() == null ? Owner.QUEUE : new Owner(job.owner());
        if (quotas == null || !owner.isCaller()) {
            return Optional.empty();
        }
        OwnerQuotas.Admission admission = quotas.admit(owner, QuotaKind.JOBS, job.requestId(), limit,
                this::stillUnfinished);
        if (admission instanceof OwnerQuotas.Admission.Refused refused) {
            return Optional.of(new SubmitOutcome.QuotaExceeded(job.visibleRequestId(), refused.limit(),
                    refused.retryAfter()));
        }
        return Optional.empty();
    }

    @Override
    public void release(InferenceJob job) {
        if (job.owner() != null) {
            released(new Owner(job.owner()), job.requestId());
        }
    }

    /** The job {@code id} of {@code owner} ended (cancelled, taken back): stop counting it; never throws. */
    public void released(Owner owner, String id) {
        if (quotas == null || !owner.isCaller()) {
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
