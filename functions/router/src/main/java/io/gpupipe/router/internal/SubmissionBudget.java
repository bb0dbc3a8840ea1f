package io.gpupipe.router.internal;

import io.gpupipe.model.owner.Owner;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** Whether a caller may still submit work this month ({@link TokenBudget}), or {@link #NONE}: no budget. */
@FunctionalInterface
public interface SubmissionBudget {
    /** No budget: every caller may always submit (the default). */
    SubmissionBudget NONE = owner -> Optional.empty();

    /** Why {@code owner} may not submit now, if it has used its budget. */
    Optional<Exceeded> check(Owner owner);

    /** The budget, the tokens counted this month, and when the budget renews (the next month, UTC). */
    record Exceeded(long budget, long used, Instant renewsAt, Duration retryAfter) {
    }
}
