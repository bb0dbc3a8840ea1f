package io.gpupipe.localaws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * Local AWS with added latency: SDK calls pass through the proxies unchanged (signed requests, presigned URLs, bodies
 * both ways) and each costs at least its service's delay. Only a lower bound is asserted, over three warmed calls in
 * a row, with delays long enough (a second) that a loaded machine does not reach them on its own; it may add any
 * amount on top.
 */
class AwsLatencyTest {
    private static final Duration S3_DELAY = Duration.ofMillis(1_200);
    private static final Duration SQS_DELAY = Duration.ofMillis(1_000);
    private static final int CALLS = 3;
    private static LocalAws aws;
    private static S3Client s3;
    private static SqsClient sqs;

    @BeforeAll
    static void start() {
        aws = LocalAws.start(LocalAwsOptions.defaults().withAwsLatency(AwsLatency.parse("s3=1200ms,sqs=1s")));
        s3 = aws.newS3Client();
        sqs = aws.newSqsClient();
    }

    @AfterAll
    static void stop() {
        s3.close();
        sqs.close();
        aws.close();
    }

    @Test
    void s3Calls_shouldPassUnchangedAndTakeAtLeastTheDelay_whenS3LatencyIsSet() throws Exception {
        // given: a body larger than one proxy read, so it crosses in several chunks; the client warmed by one call
        String body = "x".repeat(200_000) + "end";
        s3.putObject(b -> b.bucket(aws.bucket()).key("latency/warm.txt"), RequestBody.fromString("warm"));

        // when
        Duration puts = timed(() -> {
            for (int i = 0; i < CALLS; i++) {
                s3.putObject(b -> b.bucket(aws.bucket()).key("latency/a.txt"), RequestBody.fromString(body));
            }
        });
        String[] read = new String[1];
        Duration gets = timed(() -> {
            for (int i = 0; i < CALLS; i++) {
                read[0] = s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key("latency/a.txt")).asUtf8String();
            }
        });

        // then
        assertThat(read[0]).isEqualTo(body);
        assertThat(puts).isGreaterThanOrEqualTo(S3_DELAY.multipliedBy(CALLS));
        assertThat(gets).isGreaterThanOrEqualTo(S3_DELAY.multipliedBy(CALLS));
    }

    @Test
    void presignedUrl_shouldStillVerify_whenItNamesTheProxy() throws Exception {
        // given
        s3.putObject(b -> b.bucket(aws.bucket()).key("latency/presigned.txt"), RequestBody.fromString("hello"));
        URI url;
        try (S3Presigner presigner = aws.newS3Presigner()) {
            url = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(1))
                    .getObjectRequest(r -> r.bucket(aws.bucket()).key("latency/presigned.txt"))).url().toURI();
        }

        // when
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(url).build(),
                HttpResponse.BodyHandlers.ofInputStream());

        // then
        assertThat(url.getPort()).isEqualTo(aws.s3Endpoint().getPort());
        assertThat(response.statusCode()).isEqualTo(200);
        try (InputStream in = response.body()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
        }
    }

    @Test
    void sqsCalls_shouldPassUnchangedAndTakeAtLeastTheDelay_whenSqsLatencyIsSet() throws Exception {
        // given: the client warmed by one call
        String queueUrl = aws.queueUrl(LocalAws.CALLBACK_RETRY_QUEUE);
        sqs.getQueueAttributes(b -> b.queueUrl(queueUrl));

        // when
        Duration sends = timed(() -> {
            for (int i = 0; i < CALLS; i++) {
                int n = i;
                sqs.sendMessage(b -> b.queueUrl(queueUrl).messageBody("ü " + n));
            }
        });
        List<Message> received = new ArrayList<>();
        while (received.size() < CALLS) {
            received.addAll(sqs.receiveMessage(b -> b.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(5))
                    .messages());
        }

        // then
        assertThat(received).extracting(Message::body).containsExactlyInAnyOrder("ü 0", "ü 1", "ü 2");
        assertThat(queueUrl).contains(":" + aws.sqsEndpoint().getPort() + "/");
        assertThat(sends).isGreaterThanOrEqualTo(SQS_DELAY.multipliedBy(CALLS));
    }

    @Test
    void parse_shouldReadEachServicesDelay_whenWrittenAsTheFlagTakesIt() {
        // then
        assertThat(AwsLatency.parse("s3=20ms,sqs=10ms"))
                .isEqualTo(new AwsLatency(Duration.ofMillis(20), Duration.ofMillis(10)));
        assertThat(AwsLatency.parse("sqs=1s")).isEqualTo(new AwsLatency(Duration.ZERO, Duration.ofSeconds(1)));
        assertThat(AwsLatency.parse("")).isEqualTo(AwsLatency.NONE);
        assertThat(AwsLatency.parse(AwsLatency.parse("s3=20ms,sqs=10ms").toString()))
                .isEqualTo(AwsLatency.parse("s3=20ms,sqs=10ms"));
    }

    @Test
    void parse_shouldNameTheBadEntry_whenAServiceOrDelayIsUnknown() {
        // then
        assertThatThrownBy(() -> AwsLatency.parse("s3=20ms,dynamodb=5ms")).hasMessageContaining("\"dynamodb=5ms\"");
        assertThatThrownBy(() -> AwsLatency.parse("s3=20")).hasMessageContaining("\"s3=20\"");
        assertThatThrownBy(() -> AwsLatency.parse("s3=1ms,s3=2ms")).hasMessageContaining("s3 twice");
        assertThatThrownBy(() -> AwsLatency.parse("sqs=11s")).hasMessageContaining("0 to 10 s");
    }

    private static Duration timed(ThrowingRunnable call) throws Exception {
        long start = System.nanoTime();
        call.run();
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
