package io.gpupipe.notifier.aws;

import io.gpupipe.adapters.aws.AwsFailures;
import io.gpupipe.notifier.exception.NotifierAwsException;
import software.amazon.awssdk.core.exception.SdkException;

/** Translates SDK errors (after the SDK's own retries) into {@link NotifierAwsException}. */
final class AwsErrors {
    private AwsErrors() {
    }

    /** Retryable as every adapter reads an AWS failure ({@link AwsFailures#isRetryable}). */
    static NotifierAwsException translate(String action, SdkException e) {
        return new NotifierAwsException(action + " failed: " + e.getMessage(), AwsFailures.isRetryable(e), e);
    }
}
