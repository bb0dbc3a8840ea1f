package io.gpupipe.repair.exception;

/**
 * The operators' alarm for a critical XID could not be published. Thrown out of the handler so that the invocation
 * fails: Lambda retries the event and, once its retries are spent, hands it to the on-failure destination.
 */
public class AlarmPublishFailedException extends RuntimeException {
    public AlarmPublishFailedException(String eventId, RuntimeException cause) {
        super("alarm for event " + eventId + " not published: " + cause.getClass().getSimpleName() + ": "
                + cause.getMessage(), cause);
    }
}
