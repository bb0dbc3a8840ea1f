package io.gpupipe.notifier.aws;

import io.gpupipe.notifier.EventPublisher;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;

/** {@link EventPublisher} on the Quarkus-managed SNS client; attributes become String message attributes. */
@ApplicationScoped
public class SnsEventPublisher implements EventPublisher {
    private final SnsClient sns;

    SnsEventPublisher(SnsClient sns) {
        this.sns = sns;
    }

    @Override
    public String publish(String topicArn, String message, Map<String, String> attributes) {
        Map<String, MessageAttributeValue> values = new LinkedHashMap<>();
        attributes.forEach((name, value) -> values.put(name,
                MessageAttributeValue.builder().dataType("String").stringValue(value).build()));
        try {
            return sns.publish(b -> b.topicArn(topicArn).message(message).messageAttributes(values)).messageId();
        } catch (SdkException e) {
            throw AwsErrors.translate("publishing to " + topicArn, e);
        }
    }
}
