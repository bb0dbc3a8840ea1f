package io.gpupipe.localaws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * S3 evaluates a conditional write's precondition atomically with the write: of concurrent PutObject calls with
 * {@code If-Match} on the same ETag, exactly one succeeds and the rest get 412 Precondition Failed; of concurrent
 * {@code If-None-Match: *} creates (PutObject or CopyObject), exactly one succeeds ("Conditional writes", Amazon S3
 * User Guide; CopyObject, S3 API reference). The router's cancel and the worker's claim rely on it: both rewrite the
 * same {@code queued} marker conditionally; the router's cache hit copies audio create-only.
 */
class ConditionalWritesTest {
    private static final int WRITERS = 16;
    private static final int ROUNDS = 20;
    private static LocalAws aws;
    private static S3Client s3;
    private static ExecutorService pool;

    @BeforeAll
    static void start() {
        aws = LocalAws.start();
        // No SDK retries: a losing write must be seen as S3 answered it (a retried 409 would come back as 412, and
        // the back-off between attempts was most of this test's time).
        s3 = aws.newS3Client(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()));
        pool = Executors.newFixedThreadPool(WRITERS);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        s3.close();
        aws.close();
    }

    @Test
    void putObject_shouldLetExactlyOneWriterWin_whenConcurrentWritesMatchTheSameETag() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String key = "jobs/if-match-" + round + ".json";
            String eTag = s3.putObject(b -> b.bucket(LocalAws.BUCKET).key(key),
                    RequestBody.fromString("{\"status\":\"queued\"}")).eTag();
            int winners = race(writer -> s3.putObject(b -> b.bucket(LocalAws.BUCKET).key(key).ifMatch(eTag),
                    RequestBody.fromString("{\"status\":\"writer-" + writer + "\"}")));
            assertThat(winners).as("writers whose If-Match write succeeded in round %d", round).isEqualTo(1);
        }
    }

    @Test
    void putObject_shouldLetExactlyOneWriterCreate_whenConcurrentCreatesUseIfNoneMatch() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String key = "results/create-" + round + ".json";
            int winners = race(writer -> s3.putObject(b -> b.bucket(LocalAws.BUCKET).key(key)
                    .ifNoneMatch("*"), RequestBody.fromString("{\"writer\":" + writer + "}")));
            assertThat(winners).as("writers whose create succeeded in round %d", round).isEqualTo(1);
        }
    }

    @Test
    void copyObject_shouldLetExactlyOneCopyCreate_whenConcurrentCopiesUseIfNoneMatch() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String key = "audio/copy-" + round + ".wav";
            List<String> sources = new ArrayList<>();
            List<Future<?>> uploads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                String source = "cache/audio/source-" + round + "-" + w + ".wav";
                // the sources side by side: uploaded one by one they were most of this test's time
                uploads.add(pool.submit(() -> s3.putObject(b -> b.bucket(LocalAws.BUCKET).key(source),
                        RequestBody.fromString("source " + source))));
                sources.add(source);
            }
            for (Future<?> upload : uploads) {
                upload.get();
            }
            int winners = race(writer -> s3.copyObject(b -> b.sourceBucket(LocalAws.BUCKET)
                    .sourceKey(sources.get(writer)).destinationBucket(LocalAws.BUCKET).destinationKey(key)
                    .ifNoneMatch("*")));
            assertThat(winners).as("copies that created the destination in round %d", round).isEqualTo(1);
        }
    }

    @Test
    void copyObject_shouldAnswerPreconditionFailedAndKeepTheDestination_whenItExists() {
        // given
        s3.putObject(b -> b.bucket(LocalAws.BUCKET).key("audio/kept.wav"), RequestBody.fromString("first"));
        s3.putObject(b -> b.bucket(LocalAws.BUCKET).key("cache/audio/other.wav"), RequestBody.fromString("other"));
        // when
        Throwable refused = catchThrowable(() -> s3.copyObject(b -> b.sourceBucket(LocalAws.BUCKET)
                .sourceKey("cache/audio/other.wav").destinationBucket(LocalAws.BUCKET)
                .destinationKey("audio/kept.wav").ifNoneMatch("*")));
        // then: S3's answer (CopyObject, If-None-Match): 412 PreconditionFailed, nothing written
        assertThat(refused).isInstanceOf(S3Exception.class);
        S3Exception error = (S3Exception) refused;
        assertThat(error.statusCode()).isEqualTo(412);
        assertThat(error.awsErrorDetails().errorCode()).isEqualTo("PreconditionFailed");
        assertThat(s3.getObjectAsBytes(b -> b.bucket(LocalAws.BUCKET).key("audio/kept.wav")).asUtf8String())
                .isEqualTo("first");
    }

    private interface Write {
        void run(int writer);
    }

    /** Starts every writer at once; returns how many succeeded (the others must have been refused with 412). */
    private static int race(Write write) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> outcomes = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            outcomes.add(pool.submit(() -> {
                go.await();
                try {
                    write.run(writer);
                    return true;
                } catch (S3Exception e) {
                    // 409 ConditionalRequestConflict is what S3 answers when another conditional write is in flight
                    assertThat(e.statusCode()).as("a losing conditional write").isIn(409, 412);
                    return false;
                }
            }));
        }
        go.countDown();
        int winners = 0;
        for (Future<Boolean> outcome : outcomes) {
            winners += outcome.get() ? 1 : 0;
        }
        return winners;
    }
}
