package io.gpupipe.router;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** Test-side view of the local SQS queues and results bucket, through plain SDK clients. */
public final class LocalAwsProbe implements AutoCloseable {
    final LocalAws aws;
    final SqsClient sqs;
    final S3Client s3;

    LocalAwsProbe(LocalAws aws) {
        this.aws = aws;
        this.sqs = aws.newSqsClient();
        this.s3 = aws.newS3Client();
    }

    /** A presigner configured like Quarkus configures the router's: endpoint override, path style, test keys. */
    public static S3Presigner presigner(LocalAws aws) {
        return aws.newS3Presigner();
    }

    String queueUrl(String name) {
        return aws.queueUrl(name);
    }

    /** Every catalogue tier's queue URL (a mutable copy). */
    Map<Tier, String> tierQueueUrls() {
        Map<Tier, String> urls = new LinkedHashMap<>();
        TierCatalogue.bundled().tiers().forEach(tier -> urls.put(tier.tier(), aws.queueUrl(tier.queue())));
        return urls;
    }

    void purgeTierQueues() {
        drainTierQueues();
    }

    /** Every message now visible in any catalogue tier's queue, deleted. */
    List<Message> drainTierQueues() {
        List<Message> all = new ArrayList<>();
        TierCatalogue.bundled().tiers().forEach(tier -> all.addAll(drain(tier.queue())));
        return all;
    }

    /** Every message now visible in the queue (each becomes invisible for the visibility timeout). */
    List<Message> drain(String queueName) {
        String url = aws.queueUrl(queueName);
        List<Message> all = new ArrayList<>();
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10).waitTimeSeconds(0)
                    .messageAttributeNames("All")).messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            batch.forEach(m -> sqs.deleteMessage(b -> b.queueUrl(url).receiptHandle(m.receiptHandle())));
        }
    }

    static InferenceJob job(Message message) {
        return JobJson.read(message.body(), InferenceJob.class);
    }

    /**
     * The job body a worker reads from {@code message}: the message itself, or the claim-check payload it points
     * at. Every message also passes the {@link SqsMessageRules} SQS enforces and ElasticMQ does not.
     */
    String jobBody(Message message) {
        SqsMessageRules.assertFitsDefaultMaximumMessageSize(message);
        return JobMessage.payloadKey(message.body()).map(key -> object(key).orElseThrow(
                () -> new AssertionError("claim check points at a missing payload " + key))).orElse(message.body());
    }

    Optional<String> object(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(key)).asUtf8String());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /**
     * Where the job the mock event server's caller (no authorizer context: the one anonymous caller of
     * {@code gpupipe.router.auth=none}) submitted as {@code clientId} is stored.
     */
    String stored(String clientId) {
        return JobIds.stored(aws.ownerIds().of(CallerIdentity.ANONYMOUS), clientId);
    }

    Optional<JobState> marker(String requestId) {
        return object(JobLayout.markerKey(requestId)).map(json -> JobJson.read(json, JobState.class));
    }

    void put(String key, String content) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString(content));
    }

    void put(String key, byte[] content) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromBytes(content));
    }

    @Override
    public void close() {
        sqs.close();
        s3.close();
    }
}
