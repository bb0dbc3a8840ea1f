package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsJobQueue;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.router.internal.RoutingMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * 3,000 generated and mutated bodies ({@link FuzzBodies}) through the router's submit use case over the real S3
 * and SQS adapters (ElasticMQ, S3Proxy), in-process for speed; {@link RouterHttpFuzzTest} sends a sample of the
 * same kinds of body through the Quarkus handler. Asserts for every body: no exception (so no 5xx), every rejection
 * names a field or the body and sends nothing, every accepted job reaches its queue exactly once and the worker's
 * parser reads it back unchanged (through the claim check when used); and at the end, that nothing else reached a
 * queue.
 *
 * <p>Each body is a dynamic test of its own ({@code @TestFactory} over the seeded generator), so a run reports every
 * failing body with its kind and the seed that re-runs it, not only the first. 3,000 bodies keep CI's time in bounds
 * (10,000 took 110-290 s on the 2-core CI machine); a new seed each run, so the runs together cover far more, and
 * {@code -Dfuzz.bodies=N} runs a long one ({@code -Dfuzz.seed=N} replays one).
 */
class RouterFuzzTest {
    static final int BODIES = 3_000;
    private static final List<CallerIdentity> CALLERS = List.of(
            new CallerIdentity.Iam("arn:aws:iam::123456789012:role/fuzz", "123456789012", "AROAFUZZ"),
            new CallerIdentity.Jwt("https://idp.example.com", "fuzz-subject"),
            new CallerIdentity.JwtTenant("https://idp.example.com", "tenant", "fuzz-tenant"));
    private static LocalAws aws;
    private static LocalAwsProbe probe;
    private static S3Presigner presigner;
    private static JobService service;
    private static final AtomicInteger ACCEPTED = new AtomicInteger();
    private static final AtomicInteger REJECTED = new AtomicInteger();
    private static final AtomicInteger DUPLICATES = new AtomicInteger();
    /** The service's sends: a rejected body must cause none (checked without a round of receives per body). */
    private static final AtomicInteger SENDS = new AtomicInteger();

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        probe = new LocalAwsProbe(aws);
        presigner = LocalAwsProbe.presigner(aws);
        S3JobStore store = new S3JobStore(probe.s3, presigner, aws.bucket());
        SqsJobQueue queue = new SqsJobQueue(probe.sqs, probe.tierQueueUrls(),
                JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES, store::putPayload);
        JobQueue counted = (job, tier) -> {
            SENDS.incrementAndGet();
            return queue.send(job, tier);
        };
        service = new JobService(new JobRequestParser(), RoutingPolicy.defaults(),
                JobLifecycle.of(store, counted, Clock.systemUTC()), store,
                new RoutingMetrics(line -> { }, Clock.systemUTC()), Clock.systemUTC(), Duration.ofMinutes(15));
    }

    @AfterAll
    static void stopLocalAws() {
        System.out.printf("RouterFuzzTest: %d accepted, %d rejected, %d resubmitted ids%n", ACCEPTED.get(),
                REJECTED.get(), DUPLICATES.get());
        presigner.close();
        probe.close();
        aws.close();
    }

    @TestFactory
    Stream<DynamicTest> submit_shouldAcceptIntactOrRejectNamingTheField_forAnyBody() {
        FuzzRun run = FuzzRun.fromSystemProperties("RouterFuzzTest", "fuzz.bodies", BODIES);
        Stream<DynamicTest> bodies = run.bodies().map(body -> DynamicTest.dynamicTest(run.name(body),
                () -> run.check(body, () -> submitAndCheck(body.text()))));
        return Stream.concat(bodies, Stream.of(DynamicTest.dynamicTest("nothing else reached a queue", () -> {
            assertThat(probe.drainTierQueues()).as("messages nobody accepted").isEmpty();
            assertThat(ACCEPTED).as("accepted bodies").hasPositiveValue();
            assertThat(REJECTED).as("rejected bodies").hasPositiveValue();
        })));
    }

    private static void submitAndCheck(String body) {
        int sendsBefore = SENDS.get();
        SubmitOutcome outcome = service.submit(body, CallerOwners.only(callerOf(body)));
        assertThat(outcome).isNotInstanceOf(SubmitOutcome.Unavailable.class);
        if (outcome instanceof SubmitOutcome.Rejected rejected) {
            REJECTED.incrementAndGet();
            assertThat(rejected.errors()).isNotEmpty().allSatisfy(FuzzChecks::namesAFieldOrTheBody);
            assertThat(SENDS.get() - sendsBefore).as("messages sent for a rejected body").isZero();
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
        assertThat(outcome).isInstanceOf(SubmitOutcome.Duplicate.class);
        DUPLICATES.incrementAndGet();
        String id = ((SubmitOutcome.Duplicate) outcome).view().requestId();
        assertThat(messages).allSatisfy(m -> assertThat(FuzzChecks.asTheWorkerReadsIt(probe, m).visibleRequestId())
                .isEqualTo(id));
    }

    /**
     * The caller of a body, as API Gateway's authorizers would name it: an IAM principal, a JWT subject or a tenant,
     * picked by the body, so the generator's repeated requestIds land in one owner's namespace and across owners.
     */
    private static Owner callerOf(String body) {
        return OwnerIds.UNKEYED.of(CALLERS.get(Math.floorMod(body.hashCode(), CALLERS.size())));
    }

    /** The assertions both fuzz tests make. */
    static final class FuzzChecks {
        private FuzzChecks() {
        }

        /** What an error may name: the body, or a field of the request. */
        static final Set<String> FIELDS = Stream.concat(Stream.of("body"), FuzzBodies.FIELDS.stream())
                .collect(Collectors.toUnmodifiableSet());

        static void namesAFieldOrTheBody(FieldError error) {
            assertThat(error.field()).satisfiesAnyOf(field -> assertThat(field).isIn(FIELDS),
                    field -> assertThat(field).matches("messages\\[\\d+](\\.(role|content))?"),
                    field -> assertThat(field).matches("input\\[\\d+]"),
                    field -> assertThat(field).matches("responseFormat(\\.[a-z_]+)+"));
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
