package io.gpupipe.scaling;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** Puts a real (ElasticMQ) queue in a given state: messages visible, in flight (received) or delayed. */
final class QueueDriver {
    private final SqsClient sqs;
    private final String queueUrl;
    private final List<String> inFlight = new ArrayList<>();

    QueueDriver(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    void send(int count) {
        for (int i = 0; i < count; i++) {
            int n = i;
            sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("{\"n\":" + n + "}"));
        }
    }

    void sendDelayed(int count, int delaySeconds) {
        for (int i = 0; i < count; i++) {
            sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("{}").delaySeconds(delaySeconds));
        }
    }

    /** Receives {@code count} messages as a worker would and keeps them in flight (10-minute visibility). */
    void receive(int count) {
        int received = 0;
        for (int tries = 0; received < count && tries < 50; tries++) {
            int batch = Math.min(10, count - received);
            List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(batch)
                    .visibilityTimeout(600).waitTimeSeconds(0)).messages();
            messages.forEach(m -> inFlight.add(m.receiptHandle()));
            received += messages.size();
        }
        if (received != count) {
            throw new IllegalStateException("received " + received + " of " + count);
        }
    }

    /** Deletes {@code count} in-flight messages, as a worker does when a job completes. */
    void complete(int count) {
        for (int i = 0; i < count; i++) {
            String handle = inFlight.remove(inFlight.size() - 1);
            sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(handle));
        }
    }

    void purge() {
        sqs.purgeQueue(b -> b.queueUrl(queueUrl));
        inFlight.clear();
    }
}
