package io.gpupipe.notifier;

import java.util.Map;

/** Publishes a result event to a topic; returns the message id. */
public interface EventPublisher {
    /** @throws io.gpupipe.notifier.exception.NotifierAwsException when SNS refused or could not be reached */
    String publish(String topicArn, String message, Map<String, String> attributes);
}
