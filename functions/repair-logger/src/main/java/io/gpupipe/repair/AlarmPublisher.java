package io.gpupipe.repair;

/** Sends a readable alarm to the operators' topic; returns the message id. */
public interface AlarmPublisher {
    String publish(String subject, String message);
}
