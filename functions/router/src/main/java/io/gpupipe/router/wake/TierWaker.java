package io.gpupipe.router.wake;

import io.gpupipe.model.scaling.TierWake;

/** Sends a {@link TierWake} to the scaling function (AWS: an asynchronous Lambda Invoke). */
public interface TierWaker {
    /** Hands the wake over; throws when it could not be (the caller logs and carries on). */
    void wake(TierWake wake);
}
