package io.gpupipe.jobs.quota;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One caller's unfinished jobs (or batches), by id, with the epoch second each was admitted: the document its ledger
 * object holds. The rules are idempotent, so at-least-once events never count twice: admitting an id that is there
 * changes nothing, and neither does releasing one that is not. Entries older than the longest anything can stay
 * unfinished drop on the next admission, and the caller of a full ledger re-checks its oldest entries, so that a lost
 * release can never lock a caller out for good. Writers replace the object only over the version they read. An
 * entry may weigh more than one (a batch counted by its lines): {@code weights} holds those, and a limit caps the
 * sum of the weights.
 */
public record UnfinishedLedger(Map<String, Long> admitted,
                               @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Integer> weights) {
    public static final UnfinishedLedger EMPTY = new UnfinishedLedger(Map.of());

    public UnfinishedLedger {
        admitted = admitted == null ? Map.of() : Map.copyOf(admitted);
        weights = weights == null ? Map.of() : Map.copyOf(weights);
    }

    /** A ledger whose entries each weigh one (ledgers written before weights existed read this way too). */
    public UnfinishedLedger(Map<String, Long> admitted) {
        this(admitted, Map.of());
    }

    /** What an admission found. */
    public sealed interface Admission {
        /** The id is in: write {@code next} (over the version read). */
        record Admitted(UnfinishedLedger next) implements Admission {
        }

        /** The id was in already (a retried admission): nothing to write. */
        record AlreadyAdmitted() implements Admission {
        }

        /** The ledger holds {@code limit} ids not yet expired; {@code oldest} are the ones worth re-checking. */
        record Full(int limit, List<String> oldest) implements Admission {
        }
    }

    /**
     * Admits {@code id} at {@code now} unless the ledger holds {@code limit} entries younger than {@code lifetime}
     * (older ones are dropped by the write); a full answer names up to {@code recheck} oldest ids.
     */
    public Admission admit(String id, Instant now, int limit, Duration lifetime, int recheck) {
        return admit(id, 1, now, limit, lifetime, recheck);
    }

    /**
     * Admits {@code id} weighing {@code weight} at {@code now} unless the weights of the entries younger than
     * {@code lifetime} and this one's would sum to more than {@code limit}; a full answer names up to {@code
     * recheck} oldest ids (none when the ledger is empty: the entry alone is over the limit).
     */
    public Admission admit(String id, int weight, Instant now, int limit, Duration lifetime, int recheck) {
        if (weight < 1) {
            throw new IllegalArgumentException("an entry weighs at least 1, got " + weight);
        }
        if (admitted.containsKey(id)) {
            return new Admission.AlreadyAdmitted();
        }
        UnfinishedLedger live = withoutAdmittedBefore(now.minus(lifetime));
        if (live.total() + weight > limit) {
            return new Admission.Full(limit, live.oldest(recheck));
        }
        Map<String, Long> next = new TreeMap<>(live.admitted);
        next.put(id, now.getEpochSecond());
        Map<String, Integer> nextWeights = new TreeMap<>(live.weights);
        if (weight > 1) {
            nextWeights.put(id, weight);
        }
        return new Admission.Admitted(new UnfinishedLedger(next, nextWeights));
    }

    /** The sum of the entries' weights (each weighs one unless {@code weights} says more). */
    @JsonIgnore
    public long total() {
        return admitted.size() + weights.entrySet().stream().filter(e -> admitted.containsKey(e.getKey()))
                .mapToLong(e -> e.getValue() - 1L).sum();
    }

    /** True when {@code id} is counted. */
    public boolean contains(String id) {
        return admitted.containsKey(id);
    }

    /** The ledger without {@code ids}; this same ledger when it holds none of them (nothing to write). */
    public UnfinishedLedger without(Collection<String> ids) {
        if (ids.stream().noneMatch(admitted::containsKey)) {
            return this;
        }
        Map<String, Long> next = new TreeMap<>(admitted);
        Map<String, Integer> nextWeights = new TreeMap<>(weights);
        ids.forEach(next::remove);
        ids.forEach(nextWeights::remove);
        return new UnfinishedLedger(next, nextWeights);
    }

    /** The ledger without entries admitted before {@code cutoff}. */
    public UnfinishedLedger withoutAdmittedBefore(Instant cutoff) {
        return without(admitted.entrySet().stream().filter(e -> e.getValue() < cutoff.getEpochSecond())
                .map(Map.Entry::getKey).toList());
    }

    /** Up to {@code n} ids, oldest admission first (ties by id, so the answer is stable). */
    public List<String> oldest(int n) {
        return admitted.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(Comparator.naturalOrder()))).limit(n)
                .map(Map.Entry::getKey).toList();
    }

    @JsonIgnore
    public int size() {
        return admitted.size();
    }
}
