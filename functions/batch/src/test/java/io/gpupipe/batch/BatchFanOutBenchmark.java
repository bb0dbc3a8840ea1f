package io.gpupipe.batch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchStatus;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The 100,000-line fan-out: plans a 100,000-line completions file and submits every chunk of 1,000 lines,
 * one Lambda invocation per step through the mock event server, as the event source mapping delivers them (here
 * one at a time: in AWS up to 10 chunks run at once). Prints the time of each kind of invocation against the
 * function's Timeout in sam-template.yaml, the total, and jobs/s; fails if any invocation outlived the timeout or a
 * job is missing. {@code ./mvnw -B -Pbenchmark -pl functions/batch -am verify -DskipITs}.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@TestProfile(BatchFanOutBenchmark.FullChunks.class)
class BatchFanOutBenchmark {
    private static final Owner ANONYMOUS_OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    static final int LINES = Integer.getInteger("benchmark.batch-lines", BatchLimits.MAX_LINES);

    /**
     * Chunks of the deployed size (the test profile's are 4 lines), and RestAssured waiting as long as an invocation
     * may run (Quarkus's default test-timeout is 30 s), so an invocation over the Lambda timeout is measured, not cut.
     */
    public static class FullChunks implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.batch.chunk-lines", Integer.toString(BatchLimits.MAX_CHUNK_LINES),
                    "quarkus.http.test-timeout", "10m");
        }
    }

    @InjectLocalAws
    LocalAws aws;

    @Test
    void fanOut_shouldSubmitEveryLineWithinTheLambdaTimeout_forTheLargestBatch() throws IOException {
        Duration timeout = lambdaTimeout();
        try (S3Client s3 = aws.newS3Client(); SqsClient sqs = aws.newSqsClient()) {
            // given
            StringBuilder file = new StringBuilder();
            for (int line = 1; line <= LINES; line++) {
                file.append("{\"custom_id\":\"line-").append(line).append("\",\"method\":\"POST\",\"url\":")
                        .append("\"/v1/completions\",\"body\":{\"model\":\"gpt-3.5-turbo-instruct\",\"prompt\":")
                        .append("\"Once upon a time, number ").append(line).append("\",\"max_tokens\":16}}\n");
            }
            String input = BatchLayout.inputKey(ANONYMOUS_OWNER, UUID.randomUUID());
            s3.putObject(b -> b.bucket(aws.bucket()).key(input), RequestBody.fromString(file.toString()));
            S3BatchStore store = new S3BatchStore(s3, aws.newS3Presigner(), aws.bucket());
            BatchState batch = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(input,
                    BatchEndpoint.COMPLETIONS, "24h", null, null), ANONYMOUS_OWNER, Instant.now());
            store.create(batch).orElseThrow();
            sqs.sendMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE))
                    .messageBody(BatchTask.of(BatchTask.Type.PLAN, batch.id()).toJson()));

            // when: the batch queue delivered to the function, one step per invocation
            List<Long> planMs = new ArrayList<>();
            List<Long> chunkMs = new ArrayList<>();
            long start = System.nanoTime();
            pump(sqs, planMs, chunkMs);
            long totalMs = Duration.ofNanos(System.nanoTime() - start).toMillis();

            // then
            int queued = Integer.parseInt(sqs.getQueueAttributes(b -> b.queueUrl(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE))
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                    .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES));
            BatchState planned = store.read(batch.id()).orElseThrow().state();
            print(planMs, chunkMs, totalMs, timeout, queued, file.length());
            assertThat(planned.status()).isEqualTo(BatchStatus.IN_PROGRESS);
            assertThat(planned.plan().lines()).isEqualTo(LINES);
            assertThat(queued).isEqualTo(LINES);
            assertThat(Collections.max(chunkMs)).isLessThan(timeout.toMillis());
            assertThat(Collections.max(planMs)).isLessThan(timeout.toMillis());
        }
    }

    private void pump(SqsClient sqs, List<Long> planMs, List<Long> chunkMs) {
        while (true) {
            List<Message> batch = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE))
                    .maxNumberOfMessages(1).waitTimeSeconds(2)).messages();
            if (batch.isEmpty()) {
                return;
            }
            Message m = batch.get(0);
            ObjectNode event = JobJson.mapper().createObjectNode();
            event.putArray("Records").addObject().put("messageId", m.messageId()).put("receiptHandle",
                    m.receiptHandle()).put("body", m.body()).put("eventSource", "aws:sqs");
            long started = System.nanoTime();
            JsonNode response = JobJson.read(given().contentType("application/json").body(event.toString())
                    .when().post().then().statusCode(200).extract().asString(), JsonNode.class);
            long ms = Duration.ofNanos(System.nanoTime() - started).toMillis();
            assertThat(response.get("batchItemFailures")).as(m.body()).isEmpty();
            (BatchTask.read(m.body()).type() == BatchTask.Type.PLAN ? planMs : chunkMs).add(ms);
            sqs.deleteMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.BATCH_QUEUE)).receiptHandle(m.receiptHandle()));
        }
    }

    private static void print(List<Long> planMs, List<Long> chunkMs, long totalMs, Duration timeout, int queued,
                              int bytes) {
        List<Long> sorted = new ArrayList<>(chunkMs);
        Collections.sort(sorted);
        System.out.printf(Locale.ROOT, "%nBATCH FAN-OUT: %,d lines (%,d bytes), %d chunks of %d lines, one invocation "
                        + "at a time%n", LINES, bytes, chunkMs.size(), BatchLimits.MAX_CHUNK_LINES);
        System.out.printf(Locale.ROOT, "  plan invocation        %,8d ms   (Lambda timeout %,d ms: %.1f %%)%n",
                planMs.get(0), timeout.toMillis(), 100.0 * planMs.get(0) / timeout.toMillis());
        System.out.printf(Locale.ROOT, "  chunk invocation p50   %,8d ms   p95 %,d ms   max %,d ms (%.1f %% of the "
                        + "timeout)%n", percentile(sorted, 50), percentile(sorted, 95), sorted.get(sorted.size() - 1),
                100.0 * sorted.get(sorted.size() - 1) / timeout.toMillis());
        System.out.printf(Locale.ROOT, "  total fan-out          %,8d ms   %,.0f jobs/s; %,d messages on the small "
                + "queue%n%n", totalMs, queued * 1000.0 / totalMs, queued);
    }

    private static long percentile(List<Long> sorted, int p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    /** The BatchFunction's Timeout in the root sam-template.yaml. */
    private static Duration lambdaTimeout() throws IOException {
        String template = Files.readString(Path.of("..", "..", "sam-template.yaml"));
        Matcher function = Pattern.compile("(?s)\\n  BatchFunction:\\n.*?\\n      Timeout: (\\d+)\\n")
                .matcher(template);
        assertThat(function.find()).as("BatchFunction Timeout in sam-template.yaml").isTrue();
        return Duration.ofSeconds(Long.parseLong(function.group(1)));
    }
}
