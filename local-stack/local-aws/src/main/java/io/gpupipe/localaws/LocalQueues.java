package io.gpupipe.localaws;

import io.gpupipe.model.TierDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The queues the deployment declares, created on a local SQS endpoint: one per tier, redriven to the shared
 * {@link #DLQ} after {@link LocalAwsOptions#maxReceiveCount()} deliveries; the callback retry queue; and the batch
 * queue with its own DLQ and redrive. Knows each queue's URL by name. {@link LocalAws} publishes the names.
 */
final class LocalQueues {
    static final String DLQ = "gpupipe-dlq";
    /** The result notifier's delayed callback redeliveries. */
    static final String CALLBACK_RETRY_QUEUE = "gpupipe-callback-retry";
    /** The batch function's steps (plan, chunks, cancel, finalize), and where those it keeps failing on go. */
    static final String BATCH_QUEUE = "gpupipe-batch";
    static final String BATCH_DLQ = "gpupipe-batch-dlq";
    /** Deliveries of a batch step before it is dead-lettered (the template's BatchQueue redrive). */
    static final int BATCH_MAX_RECEIVE_COUNT = 5;
    /** Above the longest local chunk invocation, so a slow chunk is not handed out twice. */
    static final int BATCH_VISIBILITY_SECONDS = 180;
    /** Fourteen days, the SQS maximum: dead letters are kept for inspection and redrive. */
    private static final String DLQ_RETENTION_SECONDS = "1209600";

    private final Map<String, String> urls;

    private LocalQueues(Map<String, String> urls) {
        this.urls = Map.copyOf(urls);
    }

    static LocalQueues create(SqsClient sqs, LocalAwsOptions options) {
        Map<String, String> urls = new LinkedHashMap<>();
        String dlqUrl = createDeadLetterQueue(sqs, DLQ);
        String redrive = redrivePolicy(sqs, dlqUrl, options.maxReceiveCount());
        for (TierDefinition tier : options.tiers().tiers()) {
            urls.put(tier.queue(), createRedrivenQueue(sqs, tier.queue(), options.visibilitySeconds(tier), redrive));
        }
        urls.put(DLQ, dlqUrl);
        urls.put(CALLBACK_RETRY_QUEUE,
                sqs.createQueue(b -> b.queueName(CALLBACK_RETRY_QUEUE)).queueUrl());
        String batchDlqUrl = createDeadLetterQueue(sqs, BATCH_DLQ);
        urls.put(BATCH_DLQ, batchDlqUrl);
        urls.put(BATCH_QUEUE, createRedrivenQueue(sqs, BATCH_QUEUE,
                BATCH_VISIBILITY_SECONDS,
                redrivePolicy(sqs, batchDlqUrl, BATCH_MAX_RECEIVE_COUNT)));
        return new LocalQueues(urls);
    }

    private static String createDeadLetterQueue(SqsClient sqs, String name) {
        return sqs.createQueue(b -> b.queueName(name).attributes(Map.of(
                QueueAttributeName.MESSAGE_RETENTION_PERIOD, DLQ_RETENTION_SECONDS))).queueUrl();
    }

    /** The redrive policy sending a message to {@code dlqUrl}'s queue after {@code maxReceiveCount} deliveries. */
    private static String redrivePolicy(SqsClient sqs, String dlqUrl, int maxReceiveCount) {
        String dlqArn = sqs.getQueueAttributes(b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        return "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":\"" + maxReceiveCount + "\"}";
    }

    private static String createRedrivenQueue(SqsClient sqs, String name, int visibilitySeconds, String redrive) {
        return sqs.createQueue(b -> b.queueName(name).attributes(Map.of(
                QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(visibilitySeconds),
                QueueAttributeName.REDRIVE_POLICY, redrive))).queueUrl();
    }

    /** The URL of the queue named {@code queueName}. */
    String url(String queueName) {
        String url = urls.get(queueName);
        if (url == null) {
            throw new IllegalArgumentException("no local queue named " + queueName);
        }
        return url;
    }
}
