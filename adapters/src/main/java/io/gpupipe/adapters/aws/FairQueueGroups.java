package io.gpupipe.adapters.aws;

import io.gpupipe.model.owner.Owner;

/**
 * The {@code MessageGroupId} a message is sent with: its owner, the tenant SQS fair queues balance by (a standard
 * queue whose messages carry a group serves a quiet owner's messages before those of an owner holding a
 * disproportionate share of the consumers; SQS developer guide, "Amazon SQS fair queues"). A message of no owner
 * (a job sent straight to a tier queue) is {@link Owner#QUEUE}'s. A standard queue keeps no order within a group, so
 * nothing else changes.
 */
public final class FairQueueGroups {
    private FairQueueGroups() {
    }

    /** The group of a message about {@code owner}'s work ({@code null}: none named). */
    public static String ofOwner(String owner) {
        return owner == null ? Owner.QUEUE.value() : owner;
    }
}
