package io.gpupipe.localstack.console;

import io.gpupipe.model.RequestIds;
import io.gpupipe.model.job.JobLayout;
import java.util.Optional;

/** Which job an object of the results bucket belongs to, and what it is ({@link JobLayout}'s keys read back). */
record JobKeys(String requestId, Kind kind, String step) {

    /** The objects of a job that the console follows. */
    enum Kind {
        /** {@code jobs/{id}.json}: written queued by the router, rewritten running or cancelled. */
        MARKER,
        /** {@code results/{id}.json}: the one terminal result. */
        RESULT,
        /** {@code results/{id}.wav}: a speech job's audio. */
        AUDIO,
        /** {@code notifications/{id}.{step}.json}: a notification step the notifier recorded. */
        NOTIFICATION
    }

    /** The job object {@code key} names; empty for every other key (cache entries, payloads, batches). */
    static Optional<JobKeys> of(String key) {
        if (key.startsWith(JobLayout.JOBS_PREFIX) && key.endsWith(JobLayout.JSON_SUFFIX)) {
            return job(between(key, JobLayout.JOBS_PREFIX, JobLayout.JSON_SUFFIX), Kind.MARKER, null);
        }
        if (key.startsWith(JobLayout.RESULTS_PREFIX) && key.endsWith(JobLayout.JSON_SUFFIX)) {
            return job(between(key, JobLayout.RESULTS_PREFIX, JobLayout.JSON_SUFFIX), Kind.RESULT, null);
        }
        if (key.startsWith(JobLayout.RESULTS_PREFIX) && key.endsWith(JobLayout.WAV_SUFFIX)) {
            return job(between(key, JobLayout.RESULTS_PREFIX, JobLayout.WAV_SUFFIX), Kind.AUDIO, null);
        }
        if (key.startsWith(JobLayout.NOTIFICATIONS_PREFIX) && key.endsWith(JobLayout.JSON_SUFFIX)) {
            String idAndStep = between(key, JobLayout.NOTIFICATIONS_PREFIX, JobLayout.JSON_SUFFIX);
            int dot = idAndStep.indexOf('.');
            if (dot > 0) {
                return job(idAndStep.substring(0, dot), Kind.NOTIFICATION, idAndStep.substring(dot + 1));
            }
        }
        return Optional.empty();
    }

    private static String between(String key, String prefix, String suffix) {
        return key.length() < prefix.length() + suffix.length() ? ""
                : key.substring(prefix.length(), key.length() - suffix.length());
    }

    private static Optional<JobKeys> job(String requestId, Kind kind, String step) {
        return RequestIds.isValid(requestId) ? Optional.of(new JobKeys(requestId, kind, step))
                : Optional.empty();
    }
}
