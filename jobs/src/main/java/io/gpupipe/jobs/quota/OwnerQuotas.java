package io.gpupipe.jobs.quota;

import io.gpupipe.jobs.quota.QuotaLedgers.StoredLedger;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.jobs.quota.UnfinishedLedger;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The per-caller limits on unfinished work: each caller's ledger ({@link UnfinishedLedger}) is read and replaced over
 * the version read until the write wins, so admissions and releases from any number of routers and notifiers apply
 * one at a time and the count is exact. Admission is idempotent (a retry of one id counts once) and so is release (a
 * duplicated event removes nothing twice): counts never go negative or double. A ledger at its limit has its oldest
 * entries re-checked ({@code stillUnfinished}) before the caller is refused, and entries older than {@link
 * Limit#lifetime()} drop on every admission, so a lost release costs a slot only until then.
 */
public final class OwnerQuotas {
    private static final Logger LOG = Logger.getLogger(OwnerQuotas.class);
    /** Contenders for one ledger pause a random while below a cap that doubles from 10 to 100 ms. */
    private static final RetryPolicy CONTENTION = RetryPolicy.exponential(RetryPolicy.UNLIMITED,
            Duration.ofMillis(10), Duration.ofMillis(100)).withJitter(RetryPolicy.Jitter.FULL);

    private final QuotaLedgers ledgers;
    private final Clock clock;
    private final RetryPolicy contention;

    /** {@code contention}: how long one update may keep meeting concurrent writers before it gives up. */
    public OwnerQuotas(QuotaLedgers ledgers, Clock clock, Duration contention) {
        this.ledgers = ledgers;
        this.clock = clock;
        this.contention = CONTENTION.within(contention);
    }

    /**
     * One limit: the most unfinished ids per caller, the longest anything stays unfinished, how many of the oldest
     * entries a full ledger re-checks, and the {@code Retry-After} a refused caller is told.
     */
    public record Limit(int max, Duration lifetime, int recheck, Duration retryAfter) {
        public Limit {
            if (max < 1 || recheck < 0 || lifetime.isNegative() || lifetime.isZero()) {
                throw new IllegalArgumentException("a limit is at least 1 over a positive lifetime");
            }
        }
    }

    /** What an admission decided. */
    public sealed interface Admission {
        /** Counted (or counted already): go on. */
        record Admitted() implements Admission {
        }

        /** The caller has {@code limit} unfinished: refuse, and say when to retry. */
        record Refused(QuotaKind kind, int limit, Duration retryAfter) implements Admission {
        }
    }

    /**
     * Counts {@code id} against {@code owner}'s limit of {@code kind}. {@code stillUnfinished} answers, for an id of
     * a full ledger, whether it is really unfinished (false drops it: its release was lost).
     *
     * @throws StoreUnavailableException when the ledger cannot be read or written, or kept changing too long
     */
    public Admission admit(Owner owner, QuotaKind kind, String id, Limit limit, Predicate<String> stillUnfinished) {
        return admit(owner, kind, id, 1, limit, stillUnfinished);
    }

    /** As {@link #admit(Owner, QuotaKind, String, Limit, Predicate)}, for an id weighing {@code weight}. */
    public Admission admit(Owner owner, QuotaKind kind, String id, int weight, Limit limit,
                           Predicate<String> stillUnfinished) {
        Retry retry = contention.start();
        while (true) {
            Optional<StoredLedger> stored = ledgers.read(owner, kind);
            UnfinishedLedger ledger = stored.map(StoredLedger::ledger).orElse(UnfinishedLedger.EMPTY);
            UnfinishedLedger.Admission decision = ledger.admit(id, weight, clock.instant(), limit.max(),
                    limit.lifetime(), limit.recheck());
            if (decision instanceof UnfinishedLedger.Admission.AlreadyAdmitted) {
                return new Admission.Admitted();
            }
            if (decision instanceof UnfinishedLedger.Admission.Admitted admitted) {
                if (write(owner, kind, stored, admitted.next())) {
                    return new Admission.Admitted();
                }
            } else {
                UnfinishedLedger.Admission.Full full = (UnfinishedLedger.Admission.Full) decision;
                List<String> finished = full.oldest().stream().filter(stillUnfinished.negate()).toList();
                if (finished.isEmpty()) {
                    return new Admission.Refused(kind, full.limit(), limit.retryAfter());
                }
                LOG.infof("%d of the oldest %s of %s had ended without a release; dropping them", finished.size(),
                        kind.counted(), owner);
                write(owner, kind, stored, ledger.without(finished));
            }
            pause(kind, owner, retry);
        }
    }

    /**
     * The sum of the weights {@code owner} has counted in {@code kind}, entries older than {@code lifetime} left out.
     *
     * @throws StoreUnavailableException when the ledger cannot be read
     */
    public long counted(Owner owner, QuotaKind kind, Duration lifetime) {
        return ledgers.read(owner, kind).map(stored -> stored.ledger()
                .withoutAdmittedBefore(clock.instant().minus(lifetime)).total()).orElse(0L);
    }

    /**
     * Stops counting {@code id} against {@code owner}'s limit of {@code kind}; nothing when it is not counted (a
     * repeated event, or an id never admitted).
     *
     * @throws StoreUnavailableException when the ledger cannot be read or written, or kept changing too long
     */
    public void release(Owner owner, QuotaKind kind, String id) {
        Retry retry = contention.start();
        while (true) {
            Optional<StoredLedger> stored = ledgers.read(owner, kind);
            if (stored.isEmpty() || !stored.get().ledger().contains(id)) {
                return;
            }
            if (ledgers.replace(owner, kind, stored.get().ledger().without(List.of(id)), stored.get().eTag())) {
                return;
            }
            pause(kind, owner, retry);
        }
    }

    private boolean write(Owner owner, QuotaKind kind, Optional<StoredLedger> stored, UnfinishedLedger next) {
        return stored.isEmpty() ? ledgers.create(owner, kind, next).isPresent()
                : ledgers.replace(owner, kind, next, stored.get().eTag());
    }

    /** Another writer won: wait a random, growing while (so contenders spread out), or give up at the deadline. */
    private static void pause(QuotaKind kind, Owner owner, Retry retry) {
        if (retry.another()) {
            return;
        }
        if (retry.interrupted()) {
            throw new StoreUnavailableException("interrupted while updating the ledger of " + owner, null);
        }
        throw new StoreUnavailableException("the ledger of " + kind.counted() + " of " + owner
                + " kept changing (" + retry.attempt() + " attempts)", null);
    }
}
