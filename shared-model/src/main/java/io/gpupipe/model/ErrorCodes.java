package io.gpupipe.model;

/** Stable error codes: field-level validation codes and job-level failure codes found in results. */
public final class ErrorCodes {
    // Field-level (FieldError.code)
    public static final String REQUIRED = "required";
    public static final String INVALID_TYPE = "invalid_type";
    public static final String OUT_OF_RANGE = "out_of_range";
    public static final String INVALID_FORMAT = "invalid_format";
    public static final String INVALID_VALUE = "invalid_value";
    public static final String TOO_LONG = "too_long";
    public static final String NOT_APPLICABLE = "not_applicable";
    /** Two fields that exclude each other were both given (e.g. prompt and messages). */
    public static final String MUTUALLY_EXCLUSIVE = "mutually_exclusive";
    /** The job's task is one the tier whose queue carried it does not serve (a message sent to the wrong queue). */
    public static final String NOT_SERVED = "not_served";
    /** {@code cache: true} on a request that is not deterministic (temperature above 0 and no seed). */
    public static final String NOT_CACHEABLE = "not_cacheable";

    // Job-level (JobResult.error.code)
    public static final String INVALID_REQUEST = "invalid_request";
    public static final String EXPIRED = "expired";
    public static final String MODEL_UNAVAILABLE = "model_unavailable";
    public static final String MODEL_ERROR = "model_error";
    public static final String MODEL_TIMEOUT = "model_timeout";
    /** The prompt plus maxTokens exceed the served model's context (vLLM's max_model_len): never retried. */
    public static final String PROMPT_TOO_LONG = "prompt_too_long";
    /** The worker failed unexpectedly (e.g. storage errors) on the job's last delivery. */
    public static final String WORKER_ERROR = "worker_error";
    /** The worker shut down while the job ran on its last delivery. */
    public static final String WORKER_STOPPED = "worker_stopped";
    /**
     * The model's output does not take the job's {@code responseFormat} (not JSON, not an object, not valid against
     * the schema; typically cut short by maxTokens): the result is failed and keeps the raw text. Never retried.
     */
    public static final String RESPONSE_FORMAT_VIOLATION = "response_format_violation";
    /** SQS moved the job's message to the dead-letter queue before any worker wrote a result. */
    public static final String DEAD_LETTERED = "dead_lettered";

    private ErrorCodes() {
    }
}
