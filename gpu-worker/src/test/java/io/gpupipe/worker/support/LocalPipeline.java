package io.gpupipe.worker.support;

import static io.gpupipe.worker.support.Polling.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/** Test-side view of the local queues and bucket: send jobs, read results and markers, inspect queues. */
public final class LocalPipeline implements AutoCloseable {
    private final LocalAws aws;
    private final SqsClient sqs;
    private final S3Client s3;

    public LocalPipeline(LocalAws aws) {
        this.aws = aws;
        this.sqs = aws.newSqsClient();
        this.s3 = aws.newS3Client();
    }

    public static String newRequestId() {
        return UUID.randomUUID().toString();
    }

    /** A job body as the router would enqueue it; {@code fields} adds or overrides fields. */
    public static String job(String requestId, String prompt, Consumer<ObjectNode> fields) {
        ObjectNode job = JobJson.mapper().createObjectNode().put("requestId", requestId).put("task", "generate")
                .put("prompt", prompt).put("maxTokens", 16).put("temperature", 0.0);
        fields.accept(job);
        return job.toString();
    }

    public static String job(String requestId, String prompt) {
        return job(requestId, prompt, j -> { });
    }

    public String queueUrl(String name) {
        return aws.queueUrl(name);
    }

    /** Sends {@code body} as the router does: sealed with the deployment key, so it keeps the owner it names. */
    public void send(String queueName, String body) {
        sqs.sendMessage(b -> b.queueUrl(aws.queueUrl(queueName)).messageBody(body)
                .messageAttributes(aws.sealedAttributes(body)));
    }

    /** Sends {@code body} as a producer allowed {@code sqs:SendMessage} does: without a seal. */
    public void sendUnsealed(String queueName, String body) {
        sqs.sendMessage(b -> b.queueUrl(aws.queueUrl(queueName)).messageBody(body));
    }

    public Optional<JobResult> result(String requestId) {
        return read(JobLayout.resultKey(requestId)).map(json -> JobJson.read(json, JobResult.class));
    }

    public Optional<JobState> marker(String requestId) {
        return read(JobLayout.markerKey(requestId)).map(json -> JobJson.read(json, JobState.class));
    }

    public Optional<byte[]> audio(String requestId) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(JobLayout.audioKey(requestId)))
                    .asByteArray());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    /** The vectors object of an embedding result kept out of line ({@code results/{id}.embeddings}), if any. */
    public Optional<String> embeddings(String requestId) {
        return read(JobLayout.embeddingsKey(requestId));
    }

    public void putMarker(JobState marker) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(marker.requestId())),
                RequestBody.fromString(JobJson.write(marker)));
    }

    public void putResult(JobResult result) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId())),
                RequestBody.fromString(JobJson.write(result)));
    }

    /** Waits until the result exists, failing after {@code timeout}. */
    public JobResult awaitResult(String requestId, Duration timeout) {
        return await("result of " + requestId).atMost(timeout)
                .until(() -> result(requestId), Optional::isPresent).orElseThrow();
    }

    /**
     * Receives (and deletes) every message now visible in a queue, waiting up to {@code wait} for the first;
     * returns them with their attributes.
     */
    public List<Message> drainQueue(String queueName, Duration wait) {
        List<Message> all = new ArrayList<>();
        String url = aws.queueUrl(queueName);
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)
                    .waitTimeSeconds(all.isEmpty() ? (int) wait.toSeconds() : 0).visibilityTimeout(30)
                    .messageAttributeNames("All")
                    .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)).messages();
            if (batch.isEmpty()) {
                return all;
            }
            all.addAll(batch);
            batch.forEach(m -> sqs.deleteMessage(d -> d.queueUrl(url).receiptHandle(m.receiptHandle())));
        }
    }

    /** Messages in the DLQ whose body mentions {@code fragment}, waiting up to {@code timeout} for one. */
    public List<Message> awaitDeadLetters(String fragment, Duration timeout) {
        List<Message> found = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (found.isEmpty() && System.nanoTime() < deadline) {
            drainQueue(LocalAws.DLQ, Duration.ofSeconds(1)).stream()
                    .filter(m -> m.body().contains(fragment)).forEach(found::add);
        }
        return found;
    }

    private Optional<String> read(String key) {
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(key)).asUtf8String());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    public SqsClient sqs() {
        return sqs;
    }

    public S3Client s3() {
        return s3;
    }

    @Override
    public void close() {
        sqs.close();
        s3.close();
    }
}
