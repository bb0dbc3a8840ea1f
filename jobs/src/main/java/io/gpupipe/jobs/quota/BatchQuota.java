package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.batch.BatchState;
import java.util.Optional;

/**
 * Counts a new batch against its owner's limit once its record is created; stops counting it once it ends. Per caller:
 * {@link OwnerBatchQuota}.
 */
public interface BatchQuota {
    /** No limit on unfinished batches: nothing is counted. */
    BatchQuota UNLIMITED = new BatchQuota() {
        @Override
        public Optional<OwnerQuotas.Admission.Refused> admit(BatchState batch) {
            return Optional.empty();
        }

        @Override
        public void released(BatchState batch) {
            // nothing was counted
        }
    };

    /**
     * Empty when the batch may go on (it is counted now); the refusal when its owner is at the limit.
     *
     * @throws StoreUnavailableException when the count cannot be read or written
     */
    Optional<OwnerQuotas.Admission.Refused> admit(BatchState batch);

    /** The batch was not accepted after all: stop counting it; never throws. */
    void released(BatchState batch);
}
