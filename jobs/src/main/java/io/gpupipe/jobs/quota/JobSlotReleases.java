package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.port.JobSlots;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.QuotaSlot;
import io.gpupipe.model.owner.Owner;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Frees the slot a job held once it ended (its result landed, it was cancelled, its submission was taken back). The
 * job's marker names the slot and the version it wrote, and the slot is deleted only if still that version: a
 * repeated event, or a stale one for a slot another job has claimed since, frees nothing (at-least-once events are
 * harmless). Two calls: the marker's GET and the slot's conditional DELETE.
 */
public final class JobSlotReleases {
    private static final Logger LOG = Logger.getLogger(JobSlotReleases.class);

    private final JobSlots slots;
    private final JobStore store;

    /** {@code store}: the markers, read by stored id (not scoped to an owner). */
    public JobSlotReleases(JobSlots slots, JobStore store) {
        this.slots = slots;
        this.store = store;
    }

    /**
     * The job {@code id} of {@code owner} ended: frees the slot its marker names, if it still holds it; nothing for an
     * owner that is not a caller, a job without a marker or one that held no slot.
     *
     * @throws StoreUnavailableException when the marker cannot be read or the slot freed
     */
    public void release(Owner owner, String id) {
        if (!owner.isCaller()) {
            return;
        }
        Optional<QuotaSlot> slot = store.readMarker(id).map(marker -> marker.state().quotaSlot());
        slot.ifPresent(held -> free(owner, id, held));
    }

    /**
     * Frees {@code slot} of {@code owner} if it is still the version the job {@code id} wrote.
     *
     * @throws StoreUnavailableException when the slot cannot be freed
     */
    public void free(Owner owner, String id, QuotaSlot slot) {
        if (slots.free(owner, slot.number(), slot.eTag())) {
            LOG.debugf("slot %d of %s freed: job %s ended", slot.number(), owner, id);
        }
    }

    /** {@link #release} that logs instead of throwing: the slot is found by a refused caller's re-check. */
    void releaseOrLog(Owner owner, String id) {
        try {
            release(owner, id);
        } catch (StoreUnavailableException e) {
            LOG.warnf("job %s ended but still holds a slot of its owner's limit until re-checked: %s", id,
                    e.getMessage());
        }
    }

    /** {@link #free} that logs instead of throwing. */
    void freeOrLog(Owner owner, String id, QuotaSlot slot) {
        try {
            free(owner, id, slot);
        } catch (StoreUnavailableException e) {
            LOG.warnf("job %s was not accepted but still holds slot %d of its owner's limit until re-checked: %s", id,
                    slot.number(), e.getMessage());
        }
    }
}
