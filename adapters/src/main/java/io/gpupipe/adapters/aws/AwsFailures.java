package io.gpupipe.adapters.aws;

import software.amazon.awssdk.awscore.exception.AwsServiceException;

/** How an AWS call's failure (after the SDK's own retries) is read, the same for every adapter. */
public final class AwsFailures {
    private AwsFailures() {
    }

    /**
     * A client error: the service answered 4xx other than throttling, so the same request will fail again (a bug or
     * a misconfiguration, not an outage).
     */
    public static boolean isClientError(Throwable failure) {
        return failure instanceof AwsServiceException service && service.statusCode() >= 400
                && service.statusCode() < 500 && !service.isThrottlingException();
    }

    /** A later attempt may succeed: the service answered 5xx or throttled, or it was not reached at all. */
    public static boolean isRetryable(Throwable failure) {
        return !(failure instanceof AwsServiceException service) || service.statusCode() >= 500
                || service.isThrottlingException();
    }
}
