package io.gpupipe.worker;

import java.time.Duration;

/** What happens to a message once its job has been handled on this delivery. */
public sealed interface Disposition {

    /** Its outcome is durable (or it needs none): delete it. */
    record Delete() implements Disposition {
    }

    /** Give it back to the queue, visible again after {@code delay}. */
    record Release(Duration delay) implements Disposition {
    }

    static Disposition delete() {
        return new Delete();
    }

    static Disposition release(Duration delay) {
        return new Release(delay);
    }
}
