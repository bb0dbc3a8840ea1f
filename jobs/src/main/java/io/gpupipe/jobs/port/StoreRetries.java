package io.gpupipe.jobs.port;

import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.model.retry.RetryPolicy.Jitter;
import java.time.Duration;
import java.util.Map;

/**
 * The retry policies of the stores' own loops, the same in every component, read once from the environment beside
 * the SDK's {@code AWS_MAX_ATTEMPTS} (each component builds its stores by hand, so there is no one configuration
 * mapping to carry them):
 * <ul>
 *   <li>{@code conditionalConflicts}: a conditional write S3 answered 409 ConditionalRequestConflict (another
 *   conditional write to the key is in progress; S3 asks to retry, the SDK does not);</li>
 *   <li>{@code changedBatches}: a batch record replaced by another writer between read and replace (re-read, reapply);
 *   </li>
 *   <li>{@code changedMarkers}: a job's marker changed while submitting or cancelling (re-read, decide again).</li>
 * </ul>
 * A re-read is its own wait, so the last two do not pause.
 */
public record StoreRetries(RetryPolicy conditionalConflicts, RetryPolicy changedBatches, RetryPolicy changedMarkers) {
    public static final String CONFLICT_ATTEMPTS = "GPUPIPE_S3_CONFLICT_ATTEMPTS";
    public static final String CONFLICT_BACKOFF_MS = "GPUPIPE_S3_CONFLICT_BACKOFF_MS";
    public static final String CONFLICT_MAX_BACKOFF_MS = "GPUPIPE_S3_CONFLICT_MAX_BACKOFF_MS";
    public static final String BATCH_UPDATE_ATTEMPTS = "GPUPIPE_BATCH_UPDATE_ATTEMPTS";
    public static final String MARKER_CHANGE_ATTEMPTS = "GPUPIPE_MARKER_CHANGE_ATTEMPTS";

    /** This process's policies. */
    public static final StoreRetries CONFIGURED = fromEnvironment(System.getenv());

    /** The policies {@code env} sets; defaults for what it does not. */
    public static StoreRetries fromEnvironment(Map<String, String> env) {
        RetryPolicy conflicts = RetryPolicy.exponential(number(env, CONFLICT_ATTEMPTS, 5),
                Duration.ofMillis(number(env, CONFLICT_BACKOFF_MS, 50)),
                Duration.ofMillis(number(env, CONFLICT_MAX_BACKOFF_MS, 400))).withJitter(Jitter.EQUAL);
        return new StoreRetries(conflicts, RetryPolicy.immediate(number(env, BATCH_UPDATE_ATTEMPTS, 5)),
                RetryPolicy.immediate(number(env, MARKER_CHANGE_ATTEMPTS, 3)));
    }

    private static int number(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got \"" + value + "\"", e);
        }
    }
}
