package io.gpupipe.notifier.aws;

import io.gpupipe.adapters.aws.FairQueueGroups;
import io.gpupipe.model.JobJson;
import io.gpupipe.notifier.domain.CallbackRedelivery;
import io.gpupipe.notifier.CallbackRetryQueue;
import io.gpupipe.notifier.NotifierConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@link CallbackRetryQueue} on the Quarkus-managed SQS client: a per-message DelaySeconds (0–900), and the owner as
 * {@code MessageGroupId} ({@link FairQueueGroups}), as the job queues have it.
 */
@ApplicationScoped
public class SqsCallbackRetryQueue implements CallbackRetryQueue {
    private final SqsClient sqs;
    private final Optional<String> queueUrl;

    SqsCallbackRetryQueue(SqsClient sqs, NotifierConfig config) {
        this.sqs = sqs;
        this.queueUrl = config.callbackRetryQueueUrl();
    }

    @Override
    public boolean isConfigured() {
        return queueUrl.isPresent();
    }

    @Override
    public void schedule(CallbackRedelivery.Message message, String owner, Duration delay) {
        String url = queueUrl.orElseThrow(() -> new IllegalStateException("no callback retry queue configured"));
        try {
            sqs.sendMessage(b -> b.queueUrl(url).messageBody(JobJson.write(message))
                    .messageGroupId(FairQueueGroups.ofOwner(owner))
                    .delaySeconds((int) Math.min(delay.toSeconds(), CallbackRedelivery.SQS_MAX_DELAY.toSeconds())));
        } catch (SdkException e) {
            throw AwsErrors.translate("queueing the callback of " + message.requestId(), e);
        }
    }
}
