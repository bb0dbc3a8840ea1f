package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.owner.Owner;
import java.time.Duration;
import java.util.Optional;

/**
 * Counts a new job against its owner's limit before anything of it is written, and stops counting it once it ends;
 * a batch's lines are limited by their batch instead ({@link BatchQuota}). Per caller: {@link JobSlotQuota}.
 */
public interface JobQuota {
    /** No limit: every job may be sent and nothing is counted. */
    JobQuota UNLIMITED = new JobQuota() {
        @Override
        public Admission admit(InferenceJob job) {
            return new Admission.Admitted(Optional.empty());
        }

        @Override
        public void giveBack(InferenceJob job, QuotaSlot slot) {
            // nothing was counted
        }

        @Override
        public void released(Owner owner, String id) {
            // nothing was counted
        }
    };

    /** What an admission decided. */
    sealed interface Admission {
        /** Counted, holding {@code slot} (empty: nothing counts this job): go on, and name the slot in the marker. */
        record Admitted(Optional<QuotaSlot> slot) implements Admission {
        }

        /** The owner has {@code limit} unfinished jobs: refuse, and say when to retry. */
        record Refused(int limit, Duration retryAfter) implements Admission {
        }
    }

    /**
     * Counts {@code job} against its owner's limit.
     *
     * @throws StoreUnavailableException when the count cannot be read or written (nothing of the job is counted)
     */
    Admission admit(InferenceJob job);

    /** The job admitted with {@code slot} was not accepted after all (or was already there): free it; never throws. */
    void giveBack(InferenceJob job, QuotaSlot slot);

    /** The job {@code id} of {@code owner} ended (cancelled): free the slot its marker names; never throws. */
    void released(Owner owner, String id);
}
