package io.gpupipe.notifier.aws;

import io.gpupipe.notifier.exception.NotifierAwsException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;

/** Translates SDK errors (after the SDK's own retries) into {@link NotifierAwsException}. */
final class AwsErrors {
    private AwsErrors() {
    }

    /** 4xx answers other than throttling will not change on retry; everything else might. */
    static NotifierAwsException translate(String action, SdkException e) {
        boolean retryable = true;
        if (e instanceof AwsServiceException) {
            AwsServiceException service = (AwsServiceException) e;
            retryable = service.statusCode() >= 500 || service.isThrottlingException();
        }
        return new NotifierAwsException(action + " failed: " + e.getMessage(), retryable, e);
    }
}
