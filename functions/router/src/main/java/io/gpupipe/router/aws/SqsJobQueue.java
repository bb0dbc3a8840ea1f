package io.gpupipe.router.aws;

import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.MessageAttributes;
import io.gpupipe.model.Tier;
import io.gpupipe.router.exception.QueueUnavailableException;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/** {@link JobQueue} on SQS: one queue per tier; the body is {@link JobJson#write} of the job. */
public final class SqsJobQueue implements JobQueue {
    private final SqsClient sqs;
    private final Map<Tier, String> queueUrls;

    public SqsJobQueue(SqsClient sqs, Map<Tier, String> queueUrls) {
        this.sqs = sqs;
        this.queueUrls = Map.copyOf(queueUrls);
    }

    @Override
    public String send(InferenceJob job, Tier tier) {
        String queueUrl = queueUrls.get(tier);
        if (queueUrl == null) {
            throw new IllegalStateException("no queue configured for tier " + tier.wireName());
        }
        try {
            return sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody(JobJson.write(job))
                    .messageAttributes(attributes(job, tier))).messageId();
        } catch (SdkException e) {
            throw new QueueUnavailableException("cannot enqueue job " + job.requestId() + " to the "
                    + tier.wireName() + " queue: " + e.getMessage(), e);
        }
    }

    private static Map<String, MessageAttributeValue> attributes(InferenceJob job, Tier tier) {
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        attributes.put(MessageAttributes.TIER, string(tier.wireName()));
        attributes.put(MessageAttributes.TASK, string(job.task().wireName()));
        if (job.priority() != null) {
            attributes.put(MessageAttributes.PRIORITY, MessageAttributeValue.builder().dataType("Number")
                    .stringValue(job.priority().toString()).build());
        }
        return attributes;
    }

    private static MessageAttributeValue string(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
