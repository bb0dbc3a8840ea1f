package io.gpupipe.scaling.exception;

/** An input of the scaling metric could not be read (an AWS call failed or named something missing). */
public class ScalingInputException extends RuntimeException {
    public ScalingInputException(String message, Throwable cause) {
        super(message, cause);
    }

    public ScalingInputException(String message) {
        super(message);
    }
}
