package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsJobQueue;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.InferenceJob;
import io.gpupipe.model.JobMessage;
import io.gpupipe.model.JobRequestParser;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.internal.FaultInjection;
import io.gpupipe.router.internal.RoutingMetrics;
import io.gpupipe.submission.SubmitOutcome;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.AfterFailureMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * 3,000 generated and mutated bodies ({@link FuzzBodies}) through the router's submit use case over the real S3
 * and SQS adapters (ElasticMQ, S3Proxy), in-process for speed; {@link RouterHttpFuzzTest} sends a sample of the
 * same bodies through the Quarkus handler. Asserts: no exception (so no 5xx), every rejection names a field or the
 * body, every accepted job reaches its queue exactly once and the worker's parser reads it back unchanged (through
 * the claim check when used), and nothing else reaches a queue.
 */
class RouterFuzzTest {
    private static LocalAws aws;
    private static LocalAwsProbe probe;
    private static S3Presigner presigner;
    private static JobService service;
    private static final AtomicInteger ACCEPTED = new AtomicInteger();
    private static final AtomicInteger REJECTED = new AtomicInteger();

    @BeforeContainer
    static void startLocalAws() {
        aws = LocalAws.start();
        probe = new LocalAwsProbe(aws);
        presigner = LocalAwsProbe.presigner(aws);
        S3JobStore store = new S3JobStore(probe.s3, presigner, aws.bucket());
        SqsJobQueue queue = new SqsJobQueue(probe.sqs, probe.tierQueueUrls(),
                JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES, store::putPayload);
        service = new JobService(new JobRequestParser(), RoutingPolicy.defaults(), store, queue,
                new RoutingMetrics(line -> { }, Clock.systemUTC()), Clock.systemUTC(), Duration.ofMinutes(15),
                FaultInjection.none());
    }

    @AfterContainer
    static void stopLocalAws() {
        System.out.printf("RouterFuzzTest: %d accepted, %d rejected%n", ACCEPTED.get(), REJECTED.get());
        presigner.close();
        probe.close();
        aws.close();
    }

    @Provide
    Arbitrary<String> bodies() {
        return FuzzBodies.bodies();
    }

    // 3,000 bodies keep CI's time in bounds (10,000 took 110-290 s on the 2-core CI machine); a new seed each run,
    // so the runs together cover far more.
    @Property(tries = 3_000, afterFailure = AfterFailureMode.RANDOM_SEED, shrinking = ShrinkingMode.OFF,
            edgeCases = EdgeCasesMode.NONE)
    void submit_shouldAcceptIntactOrRejectNamingTheField_forAnyBody(@ForAll("bodies") String body) {
        SubmitOutcome outcome = service.submit(body);
        assertThat(outcome).isNotInstanceOf(SubmitOutcome.Unavailable.class);
        if (outcome instanceof SubmitOutcome.Rejected rejected) {
            REJECTED.incrementAndGet();
            assertThat(rejected.errors()).isNotEmpty().allSatisfy(FuzzChecks::namesAFieldOrTheBody);
            return;
        }
        List<Message> messages = probe.drainTierQueues();
        if (outcome instanceof SubmitOutcome.Accepted accepted) {
            ACCEPTED.incrementAndGet();
            assertThat(messages).hasSize(1);
            assertThat(FuzzChecks.asTheWorkerReadsIt(probe, messages.get(0))).isEqualTo(accepted.job());
            return;
        }
        // a requestId the generator repeated: re-enqueued (or not) for the job the marker names
        String id = ((SubmitOutcome.Duplicate) outcome).view().requestId();
        assertThat(messages).allSatisfy(m -> assertThat(FuzzChecks.asTheWorkerReadsIt(probe, m).requestId())
                .isEqualTo(id));
    }

    @AfterProperty
    void nothingElseReachedAQueue() {
        assertThat(probe.drainTierQueues()).as("messages nobody accepted").isEmpty();
    }

    /** The assertions both fuzz tests make. */
    static final class FuzzChecks {
        private FuzzChecks() {
        }

        static final Set<String> FIELDS = Set.of("body", "requestId", "task", "prompt",
                "maxTokens", "temperature", "topP", "route", "voice", "priority", "callbackUrl", "ttlSeconds",
                "messages");

        static void namesAFieldOrTheBody(FieldError error) {
            assertThat(error.field()).satisfiesAnyOf(field -> assertThat(field).isIn(FIELDS),
                    field -> assertThat(field).matches("messages\\[\\d+](\\.(role|content))?"));
            assertThat(error.code()).isNotBlank();
            assertThat(error.message()).isNotBlank();
        }

        static InferenceJob asTheWorkerReadsIt(LocalAwsProbe probe, Message message) {
            assertThat(JobMessage.isQueueSafe(message.body())).isTrue();
            JobRequestParser.Outcome parsed = new JobRequestParser().parse(probe.jobBody(message),
                    JobRequestParser.Source.QUEUE);
            assertThat(parsed).isInstanceOf(JobRequestParser.Outcome.Valid.class);
            return ((JobRequestParser.Outcome.Valid) parsed).job();
        }
    }
}
