package io.gpupipe.router;

import io.gpupipe.model.FieldError;
import java.time.Duration;
import java.util.List;

/** What {@code POST /v1/batches/uploads} answered. */
public sealed interface UploadOutcome {
    /** Where to PUT the file (200). */
    record Granted(UploadResponse upload) implements UploadOutcome {
    }

    /** The request is invalid: every field error, no URL handed out (400). */
    record Rejected(List<FieldError> errors) implements UploadOutcome {
    }

    /** The caller had {@code perHour} upload URLs this hour already (429, Retry-After: the next hour). */
    record TooMany(int perHour, Duration retryAfter) implements UploadOutcome {
    }
}
