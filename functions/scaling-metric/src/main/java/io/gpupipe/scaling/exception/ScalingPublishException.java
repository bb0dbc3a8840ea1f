package io.gpupipe.scaling.exception;

/** Nothing could be published: PutMetricData failed, or no tier's inputs could be read. */
public class ScalingPublishException extends RuntimeException {
    public ScalingPublishException(String message, Throwable cause) {
        super(message, cause);
    }
}
