package io.gpupipe.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.S3QuotaLedgers;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.jobs.quota.QuotaKind;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.BatchIds;
import io.gpupipe.model.batch.BatchEndpoint;
import io.gpupipe.model.batch.BatchError;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.batch.BatchRequest;
import io.gpupipe.model.batch.BatchState;
import io.gpupipe.model.batch.BatchStatus;
import io.gpupipe.model.batch.BatchTask;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.testsupport.LambdaInvocations;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The per-caller cap on lines of unfinished batches, set to 6 here: batches of 4 lines, planned by the handler as
 * Lambda's event source would deliver the batch queue. The second batch of one caller would hold 8 lines and fails
 * at validation naming the cap; once the first ends (the notifier's release), a third fits.
 */
@QuarkusTest
@TestProfile(BatchLineCapTest.SixLines.class)
@WithTestResource(LocalAwsTestResource.class)
class BatchLineCapTest {
    private static final int CAP = 6;
    private static final Instant CREATED = Instant.parse("2026-12-04T07:00:00Z");

    /** {@code GPUPIPE_BATCH_MAX_UNFINISHED_LINES=6}. */
    public static class SixLines implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.batch.max-unfinished-lines", Integer.toString(CAP));
        }
    }

    @InjectLocalAws
    LocalAws aws;

    private S3Client s3;
    private SqsClient sqs;
    private S3BatchStore store;
    private final Owner caller = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
            "lines-" + UUID.randomUUID()));

    @BeforeEach
    void setUp() {
        s3 = aws.newS3Client();
        sqs = aws.newSqsClient();
        store = new S3BatchStore(s3, aws.newS3Presigner(), aws.bucket());
    }

    @AfterEach
    void tearDown() {
        sqs.close();
        s3.close();
    }

    @Test
    void plan_shouldFailABatchNamingTheCap_whenItsLinesWouldTakeItsCallerOverIt() {
        // given a batch of 4 lines planned: 4 of the caller's 6 are taken
        BatchState first = plan(create(4));
        assertThat(first.status()).isEqualTo(BatchStatus.IN_PROGRESS);

        // when a second batch of 4 lines is planned
        BatchState second = plan(create(4));

        // then it fails at validation, naming the cap; the first goes on
        assertThat(second.status()).isEqualTo(BatchStatus.FAILED);
        assertThat(second.errors()).extracting(BatchError::code).containsExactly("line_limit_exceeded");
        assertThat(second.errors().get(0).message()).contains("4 lines").contains("limit of " + CAP);
        assertThat(store.read(first.id()).orElseThrow().state().status()).isEqualTo(BatchStatus.IN_PROGRESS);

        // and once the first has ended (the notifier releases its lines with its terminal record), a third fits
        new OwnerQuotas(new S3QuotaLedgers(s3, aws.bucket()), Clock.systemUTC(), Duration.ofSeconds(5))
                .release(caller, QuotaKind.BATCH_LINES, first.id());
        assertThat(plan(create(4)).status()).isEqualTo(BatchStatus.IN_PROGRESS);
    }

    private BatchState create(int lines) {
        String key = BatchLayout.inputKey(caller, UUID.randomUUID());
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            input.append("{\"custom_id\":\"line-").append(i).append("\",\"method\":\"POST\",\"url\":")
                    .append("\"/v1/completions\",\"body\":{\"prompt\":\"Count to ").append(i).append("\"}}\n");
        }
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString(input.toString()));
        BatchState state = BatchState.created(BatchIds.newBatchId(UUID.randomUUID()), new BatchRequest(key,
                BatchEndpoint.COMPLETIONS, "24h", null, null), caller, CREATED);
        store.create(state).orElseThrow();
        return state;
    }

    /** Delivers the batch's PLAN task to the handler (its chunks' tasks stay queued) and reads the batch back. */
    private BatchState plan(BatchState batch) {
        Message plan = Message.builder().messageId(UUID.randomUUID().toString()).receiptHandle("rh")
                .body(BatchTask.of(BatchTask.Type.PLAN, batch.id()).toJson()).build();
        assertThat(LambdaInvocations.invoke(BatchHandlerTest.event(List.of(plan))).get("batchItemFailures"))
                .isEmpty();
        return store.read(batch.id()).orElseThrow().state();
    }
}
