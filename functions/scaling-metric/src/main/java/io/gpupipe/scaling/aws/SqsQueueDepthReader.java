package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.QueueDepth;
import io.gpupipe.scaling.ScalingSources;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** Queue depth from SQS GetQueueAttributes (the Quarkus-managed client). */
@ApplicationScoped
public class SqsQueueDepthReader implements ScalingSources.QueueDepthReader {
    private final SqsClient sqs;

    SqsQueueDepthReader(SqsClient sqs) {
        this.sqs = sqs;
    }

    @Override
    public QueueDepth read(String queueUrl) {
        Map<QueueAttributeName, String> attributes;
        try {
            attributes = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)).attributes();
        } catch (SdkException e) {
            throw new ScalingInputException("SQS GetQueueAttributes on " + queueUrl + " failed: " + e.getMessage(),
                    e);
        }
        return new QueueDepth(count(attributes, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES),
                count(attributes, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE),
                count(attributes, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }

    private static long count(Map<QueueAttributeName, String> attributes, QueueAttributeName name) {
        String value = attributes.get(name);
        if (value == null) {
            throw new ScalingInputException("SQS did not return " + name);
        }
        return Long.parseLong(value);
    }
}
