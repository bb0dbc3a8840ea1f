package io.gpupipe.notifier.domain;

import io.gpupipe.model.notify.CallbackTargetPolicy;
import java.util.Objects;

/**
 * What became of one record's callback: not requested, refused by policy, handed to the callback queue, delivered, or
 * failed.
 */
public record CallbackDelivery(Status status, int attempts, Integer lastHttpStatus, String detail) {

    /** The fate of the callback. */
    public enum Status {
        /** The result carried no callbackUrl. */
        NONE,
        /** {@link CallbackTargetPolicy} refused the target; nothing was sent. */
        REFUSED,
        /** Handed to the callback queue, whose consumer delivers it (the result's own invocation never waits on it). */
        QUEUED,
        /** The receiver answered 2xx. */
        DELIVERED,
        /** Every attempt failed, or the receiver gave a final non-2xx answer. */
        FAILED
    }

    public CallbackDelivery {
        Objects.requireNonNull(status, "status");
    }

    public static CallbackDelivery none() {
        return new CallbackDelivery(Status.NONE, 0, null, null);
    }

    public static CallbackDelivery refused(String reason) {
        return new CallbackDelivery(Status.REFUSED, 0, null, reason);
    }

    public static CallbackDelivery queued() {
        return new CallbackDelivery(Status.QUEUED, 0, null, null);
    }

    public static CallbackDelivery delivered(int attempts, int httpStatus) {
        return new CallbackDelivery(Status.DELIVERED, attempts, httpStatus, null);
    }

    public static CallbackDelivery failed(int attempts, Integer lastHttpStatus, String detail) {
        return new CallbackDelivery(Status.FAILED, attempts, lastHttpStatus, detail);
    }
}
