package io.gpupipe.localaws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

class LocalAwsTest {
    private static final Duration POLL = Duration.ofMillis(50);
    private static LocalAws aws;
    private static final List<String> created = new ArrayList<>();

    @BeforeAll
    static void start() {
        aws = LocalAws.start(LocalAwsOptions.defaults().withVisibilityTimeouts(1).withMaxReceiveCount(2));
        aws.onObjectCreated((bucket, key, size, eTag) -> created.add(bucket + "/" + key + ":" + size));
    }

    @AfterAll
    static void stop() {
        aws.close();
    }

    @Test
    void close_shouldStopTheSqsServersThreads() throws Exception {
        // every test JVM and local stack starts and closes LocalAws; ElasticMQ's dispatcher threads must not outlive
        // it (they would, were its actor system ever provided from outside: ElasticMQ terminates only its own)
        LocalAws other = LocalAws.start();
        try (SqsClient sqs = other.newSqsClient()) {
            assertThat(sqs.listQueues().queueUrls()).isNotEmpty();
        }
        long before = sqsThreads();
        other.close();
        assertThat(before).isPositive();
        await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(POLL).untilAsserted(() ->
                assertThat(sqsThreads()).as("ElasticMQ dispatcher threads after close").isLessThan(before));
    }

    private static long sqsThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("elasticmq-pekko")).count();
    }

    @Test
    void putObject_shouldRefuseSecondCreate_whenIfNoneMatchStar() {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(LocalAws.BUCKET).key("results/a.json").ifNoneMatch("*"),
                    RequestBody.fromString("{}"));

            assertThatThrownBy(() -> s3.putObject(b -> b.bucket(LocalAws.BUCKET).key("results/a.json")
                    .ifNoneMatch("*"), RequestBody.fromString("{\"x\":1}")))
                    .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
            assertThat(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key("results/a.json")).asUtf8String())
                    .isEqualTo("{}");
            assertThat(created).contains(LocalAws.BUCKET + "/results/a.json:2");
        }
    }

    @Test
    void putObject_shouldReadTheWholeBodyAndKeepTheConnection_whenTheLastBytesArriveLate() {
        LateTailHttpClient http = new LateTailHttpClient();
        try (S3Client s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.of(LocalAws.REGION))
                .forcePathStyle(true).credentialsProvider(LocalAws.credentials()).httpClient(http)
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build()) {
            for (int i = 0; i < 3; i++) {
                String key = "jobs/late-" + i + ".json";
                s3.putObject(b -> b.bucket(LocalAws.BUCKET).key(key), RequestBody.fromString("{\"i\":" + i + "}"));
            }

            // the SDK frames bodies as aws-chunked over http; S3 reads the terminal chunk and keeps the connection
            assertThat(http.contentEncodings()).containsOnly("aws-chunked");
            assertThat(http.connectionsOpened()).as("connections opened for three PUTs").isEqualTo(1);
            assertThat(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key("jobs/late-2.json")).asUtf8String())
                    .isEqualTo("{\"i\":2}");
        }
    }

    @Test
    void receive_shouldMoveMessageToDlq_afterMaxReceiveCount() {
        try (SqsClient sqs = aws.newSqsClient()) {
            String small = aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE);
            sqs.sendMessage(b -> b.queueUrl(small).messageBody("poison"));
            for (int i = 0; i < 2; i++) {
                List<Message> got = sqs.receiveMessage(b -> b.queueUrl(small).waitTimeSeconds(3)
                        .messageSystemAttributeNames(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
                        .messages();
                assertThat(got).hasSize(1);
                // the 1 s visibility timeout runs out: the message is receivable again
                await("the message visible again").atMost(Duration.ofSeconds(5)).pollInterval(POLL)
                        .until(() -> sqs.getQueueAttributes(b -> b.queueUrl(small)
                                .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES)).attributes()
                                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES), "1"::equals);
            }
            // As on SQS, the move happens when a receive would exceed maxReceiveCount.
            assertThat(sqs.receiveMessage(b -> b.queueUrl(small).waitTimeSeconds(1)).messages()).isEmpty();
            List<Message> dead = sqs.receiveMessage(b -> b.queueUrl(aws.queueUrl(LocalAws.DLQ))
                    .waitTimeSeconds(3)).messages();
            assertThat(dead).extracting(Message::body).containsExactly("poison");
        }
    }

    @Test
    void start_shouldKeepTheBucketsObjects_whenStartedAgainOnTheSameDataDirectory(@TempDir Path data) {
        // given a stack that wrote an object to disk (the launcher's --data)
        try (LocalAws first = LocalAws.start(LocalAwsOptions.defaults().withDataDir(data));
             S3Client s3 = first.newS3Client()) {
            s3.putObject(b -> b.bucket(LocalAws.BUCKET).key("results/kept.json"), RequestBody.fromString("{}"));
        }
        // when a new one starts there (the bucket exists already), then it serves that object
        try (LocalAws second = LocalAws.start(LocalAwsOptions.defaults().withDataDir(data));
             S3Client s3 = second.newS3Client()) {
            assertThat(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key("results/kept.json")).asUtf8String())
                    .isEqualTo("{}");
        }
    }

    @Test
    void queueUrl_shouldNameTheQueue_whenNoneHasThatName() {
        assertThatThrownBy(() -> aws.queueUrl("gpupipe-no-such-queue"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gpupipe-no-such-queue");
    }
}
