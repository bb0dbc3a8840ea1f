package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.job.JobMessage;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/**
 * Rules real SQS enforces that ElasticMQ does not, checked on every message a test drains, so that no test passes
 * only because the stand-in is kinder. ElasticMQ 1.7.1 refuses characters outside SQS's set and bodies over 1 MiB
 * like SQS (QueueSafeMessageTest checks that), but ignores the queue's MaximumMessageSize, whose default (262,144
 * bytes, body plus attribute names, types and values) the templates' queues keep (CreateQueue, Amazon SQS API
 * Reference).
 */
final class SqsMessageRules {
    private SqsMessageRules() {
    }

    /** Named check: the message would fit a queue with SQS's default MaximumMessageSize. */
    static void assertFitsDefaultMaximumMessageSize(Message message) {
        int size = message.body().getBytes(StandardCharsets.UTF_8).length;
        for (var attribute : message.messageAttributes().entrySet()) {
            MessageAttributeValue value = attribute.getValue();
            size += utf8(attribute.getKey()) + utf8(value.dataType()) + utf8(value.stringValue());
        }
        assertThat(size).as("message size (body + attributes) vs SQS's default MaximumMessageSize")
                .isLessThanOrEqualTo(JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES);
    }

    private static int utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
