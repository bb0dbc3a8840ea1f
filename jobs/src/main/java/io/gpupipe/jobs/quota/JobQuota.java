package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;

/**
 * Counts a new job against its owner's limit once its marker is claimed and before it is sent, and stops counting it
 * once it ends ({@link OwnerJobQuota}); a batch's lines are limited by their batch instead ({@link BatchQuota}).
 */
public interface JobQuota {
    /** No limit: every job may be sent and nothing is counted. */
    JobQuota UNLIMITED = new JobQuota() {
        @Override
        public Optional<OwnerQuotas.Admission.Refused> admit(InferenceJob job) {
            return Optional.empty();
        }

        @Override
        public void released(Owner owner, String id) {
            // nothing was counted
        }
    };

    /**
     * Empty when the job may be sent (it is counted now); the refusal when its owner is at the limit.
     *
     * @throws StoreUnavailableException when the count cannot be read or written
     */
    Optional<OwnerQuotas.Admission.Refused> admit(InferenceJob job);

    /** The job {@code id} of {@code owner} ended (cancelled, taken back): stop counting it; never throws. */
    void released(Owner owner, String id);

    /** The job admitted was not accepted after all: stop counting it (never throws). */
    default void release(InferenceJob job) {
        if (job.owner() != null) {
            released(new Owner(job.owner()), job.requestId());
        }
    }
}
