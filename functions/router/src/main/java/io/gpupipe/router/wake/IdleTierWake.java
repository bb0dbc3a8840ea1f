package io.gpupipe.router.wake;

import io.gpupipe.model.Tier;
import io.gpupipe.model.scaling.TierWake;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Decides when a send to a tier should wake it: the router knows it just enqueued a job, and each execution
 * environment remembers when it last sent to each tier. A tier this environment sent to within
 * {@code awakeAfterSend} cannot be at zero (the to-zero alarm needs that many idle minutes with nothing sent), so
 * only the first send after such a gap wakes it. Another environment may have sent meanwhile, or a new environment
 * remembers nothing: then the wake is redundant, and the scaling function, which sees the service's desired count,
 * changes nothing. A wake that cannot be sent is logged and the tier wakes at the next scheduled run; the job is
 * already queued either way.
 */
public final class IdleTierWake {
    private static final Logger LOG = Logger.getLogger(IdleTierWake.class);

    private final TierWaker waker;
    private final Duration awakeAfterSend;
    private final Clock clock;
    private final Map<Tier, Instant> lastSend = new ConcurrentHashMap<>();

    public IdleTierWake(TierWaker waker, Duration awakeAfterSend, Clock clock) {
        this.waker = waker;
        this.awakeAfterSend = awakeAfterSend;
        this.clock = clock;
    }

    /** A job was just sent to {@code tier}'s queue. Returns whether this send woke the tier. */
    public boolean sent(Tier tier) {
        Instant now = clock.instant();
        Instant previous = lastSend.put(tier, now);
        if (previous != null && previous.plus(awakeAfterSend).isAfter(now)) {
            return false;
        }
        try {
            waker.wake(new TierWake(tier, now));
            return true;
        } catch (RuntimeException e) {
            LOG.warnf("cannot wake tier %s (%s): it wakes at the next scheduled scaling run", tier, e.getMessage());
            return false;
        }
    }
}
