package io.gpupipe.router;

/** Error codes the API adds to shared-model's field-level {@link io.gpupipe.model.ErrorCodes}. */
public final class ApiErrorCodes {
    public static final String PAYLOAD_TOO_LARGE = "payload_too_large";
    public static final String UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type";
    public static final String NOT_FOUND = "not_found";
    public static final String NOT_CANCELLABLE = "not_cancellable";
    /** A batch's line is cancelled only with its batch. */
    public static final String PART_OF_BATCH = "part_of_batch";
    /** A batch is retried only once it has ended. */
    public static final String NOT_ENDED = "not_ended";
    /** A batch is retried once; its retry batch can be retried in turn. */
    public static final String ALREADY_RETRIED = "already_retried";
    /** No line of the batch failed, expired or was cancelled. */
    public static final String NOTHING_TO_RETRY = "nothing_to_retry";
    /** The input file of the batch to retry is gone (the results bucket's retention). */
    public static final String INPUT_FILE_MISSING = "input_file_missing";
    public static final String METHOD_NOT_ALLOWED = "method_not_allowed";
    public static final String NOT_ACCEPTABLE = "not_acceptable";
    public static final String UNAVAILABLE = "unavailable";
    public static final String INTERNAL_ERROR = "internal_error";
    /** The caller is at one of its limits (unfinished jobs, unfinished batches): 429 with Retry-After. */
    public static final String QUOTA_EXCEEDED = "quota_exceeded";
    /** The caller sent requests faster than its request rate: 429 with Retry-After (the next accepted request). */
    public static final String RATE_LIMITED = "rate_limited";
    /** The caller has used its monthly token budget: 429 with Retry-After (the next month). */
    public static final String BUDGET_EXCEEDED = "budget_exceeded";
    /** The deployment requires a caller identity and the request carried none: 401. */
    public static final String UNAUTHENTICATED = "unauthenticated";

    private ApiErrorCodes() {
    }
}
