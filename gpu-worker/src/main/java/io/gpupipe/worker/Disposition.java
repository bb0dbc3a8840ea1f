package io.gpupipe.worker;

import java.time.Duration;

/** What happens to a message once its job has been handled on this delivery. */
public sealed interface Disposition {

    /** Its outcome is durable (or it needs none): delete it. */
    record Delete() implements Disposition {
    }

    /**
     * Give it back to the queue, visible again after {@code delay}. On the message's last receive the consumer first
     * writes a {@code failed} result with {@code code} and {@code why}, unless {@code resultWritten} (the job's
     * outcome is already in S3), since SQS moves it to the DLQ instead of delivering it again.
     */
    record Release(Duration delay, boolean resultWritten, String code, String why) implements Disposition {
    }

    static Disposition delete() {
        return new Delete();
    }

    /** Released without a result; {@code code}/{@code why} describe the failure should this be the last receive. */
    static Disposition release(Duration delay, String code, String why) {
        return new Release(delay, false, code, why);
    }

    /** Released after its {@code failed} result was written (the redrive policy then moves it to the DLQ). */
    static Disposition releaseAfterResult(Duration delay) {
        return new Release(delay, true, null, null);
    }
}
