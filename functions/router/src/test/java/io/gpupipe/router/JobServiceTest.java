package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsJobQueue;
import io.gpupipe.jobs.CacheShortcut;
import io.gpupipe.jobs.CancelOutcome;
import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.jobs.SubmitOutcome;
import io.gpupipe.jobs.port.JobQueue;
import io.gpupipe.jobs.port.JobStore;
import io.gpupipe.jobs.port.QueueRejectedMessageException;
import io.gpupipe.jobs.port.QueueUnavailableException;
import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.jobs.quota.JobQuota;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.embedding.EmbeddingResponse;
import io.gpupipe.model.embedding.EncodingFormat;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.routing.RoutingPolicy;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.router.exception.InjectedFaultException;
import io.gpupipe.router.internal.FaultInjection;
import io.gpupipe.router.internal.RoutingMetrics;
import java.net.URI;
import java.net.URL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/** JobService without Quarkus, over the real S3/SQS adapters and local endpoints. */
class JobServiceTest {
    private static final Owner OWNER = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com",
            "job-service-test"));
    private static final CallerOwners CALLER = CallerOwners.only(OWNER);
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    /** A resubmission arrives later: its marker differs from the first one's (submittedAt to the nanosecond). */
    private static final Clock LATER = Clock.fixed(NOW.plusSeconds(5), ZoneOffset.UTC);
    private static LocalAws aws;
    private static LocalAwsProbe probe;
    private static S3Presigner presigner;

    private S3JobStore store;

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        probe = new LocalAwsProbe(aws);
        presigner = LocalAwsProbe.presigner(aws);
    }

    @AfterAll
    static void stopLocalAws() {
        presigner.close();
        probe.close();
        aws.close();
    }

    @BeforeEach
    void setUp() {
        store = new S3JobStore(probe.s3, presigner, aws.bucket());
        probe.purgeTierQueues();
    }

    @AfterEach
    void tearDown() {
        probe.purgeTierQueues();
    }

    @Test
    void submit_shouldStampSubmittedAtFromTheClock_whenJobIsAccepted() {
        // when
        SubmitOutcome outcome = service(store, line -> { }).submit("{\"prompt\":\"Hi\"}", CALLER);

        // then
        String id = ((SubmitOutcome.Accepted) outcome).job().visibleRequestId();
        InferenceJob sent = LocalAwsProbe.job(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE).get(0));
        assertThat(sent.submittedAt()).isEqualTo(NOW);
        JobState marker = probe.marker(stored(id)).orElseThrow();
        assertThat(marker.submittedAt()).isEqualTo(NOW);
        assertThat(marker.updatedAt()).isEqualTo(NOW);
    }

    @Test
    void earlierOwnerId_shouldStillReadCancelAndAnswerAResubmission_ofAJobSubmittedUnderIt() {
        // given: a caller's job submitted before the upgrade to keyed owner ids (under its unkeyed id), still queued
        CallerIdentity caller = new CallerIdentity.Jwt("https://idp.example.com", "upgraded-" + UUID.randomUUID());
        Owner before = OwnerIds.UNKEYED.of(caller);
        Owner keyed = DeploymentKey.of(DeploymentKey.generateText()).ownerIds().of(caller);
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Before the upgrade\"}";
        JobService service = service(store, line -> { });
        assertThat(service.submit(body, CallerOwners.only(before))).isInstanceOf(SubmitOutcome.Accepted.class);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).hasSize(1);
        CallerOwners honoured = new CallerOwners(keyed, List.of(before));

        // when
        StatusOutcome seen = service.status(id, honoured);
        SubmitOutcome resubmitted = service.submit(body, honoured);
        StatusOutcome unseen = service.status(id, CallerOwners.only(keyed));

        // then: the caller's one job, not a second one under the keyed id
        assertThat(seen).isInstanceOfSatisfying(StatusOutcome.Found.class,
                found -> assertThat(found.view().requestId()).isEqualTo(id));
        assertThat(resubmitted).isInstanceOfSatisfying(SubmitOutcome.Duplicate.class,
                duplicate -> assertThat(duplicate.view().requestId()).isEqualTo(id));
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).as("messages of a second job").isEmpty();
        assertThat(probe.marker(JobIds.stored(keyed, id))).isEmpty();
        // and a deployment that no longer honours the earlier id does not know the job
        assertThat(unseen).isEqualTo(new StatusOutcome.NotFound(id));
        assertThat(service.cancel(id, CallerOwners.only(keyed))).isEqualTo(new CancelOutcome.NotFound(id));
        assertThat(service.cancel(id, honoured)).isInstanceOf(CancelOutcome.Cancelled.class);
    }

    @Test
    void earlierOwnerIds_shouldCostNoRead_forASubmissionWhoseRequestIdTheRouterGenerated() {
        // given: a caller with an earlier owner id honoured, and a store that counts the markers read
        CallerIdentity caller = new CallerIdentity.Jwt("https://idp.example.com", "upgraded-" + UUID.randomUUID());
        CallerOwners honoured = new CallerOwners(DeploymentKey.of(DeploymentKey.generateText()).ownerIds().of(caller),
                List.of(OwnerIds.UNKEYED.of(caller)));
        List<String> read = Collections.synchronizedList(new ArrayList<>());
        JobService service = service(new ForwardingStore(store) {
            @Override
            public Optional<StoredMarker> readMarker(String requestId) {
                read.add(requestId);
                return super.readMarker(requestId);
            }
        }, line -> { });

        // when: one submission names no requestId, another names one
        SubmitOutcome generated = service.submit("{\"prompt\":\"Hi\"}", honoured);
        String named = UUID.randomUUID().toString();
        SubmitOutcome chosen = service.submit("{\"requestId\":\"" + named + "\",\"prompt\":\"Hi\"}", honoured);

        // then: both accepted; only the named one was looked for under the earlier id
        assertThat(generated).isInstanceOf(SubmitOutcome.Accepted.class);
        assertThat(chosen).isInstanceOf(SubmitOutcome.Accepted.class);
        assertThat(read).contains(JobIds.stored(OwnerIds.UNKEYED.of(caller), named))
                .doesNotContain(JobIds.stored(OwnerIds.UNKEYED.of(caller),
                        ((SubmitOutcome.Accepted) generated).job().clientRequestId()));
    }

    @Test
    void submit_shouldStillAcceptTheJob_whenPublishingTheMetricFails() {
        // when
        SubmitOutcome outcome = service(store, line -> {
            throw new IllegalStateException("metrics pipe broken");
        }).submit("{\"prompt\":\"Hi\"}", CALLER);

        // then
        assertThat(outcome).isInstanceOf(SubmitOutcome.Accepted.class);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).hasSize(1);
    }

    @Test
    void cancel_shouldReportNotCancellable_whenWorkerStartsTheJobBetweenReadAndWrite() {
        // given a worker that marks the job running just before our conditional write reaches S3
        JobService service = service(new WorkerRacingStore(store), line -> { });
        String id = ((SubmitOutcome.Accepted) service.submit("{\"prompt\":\"Race me\"}", CALLER)).job()
                .visibleRequestId();

        // when
        CancelOutcome outcome = service.cancel(id, CALLER);

        // then
        assertThat(outcome).isInstanceOf(CancelOutcome.NotCancellable.class);
        assertThat(((CancelOutcome.NotCancellable) outcome).view().status()).isEqualTo(JobStatus.RUNNING);
        assertThat(probe.marker(stored(id)).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void status_shouldPresignResultButNoAudio_whenGenerateJobSucceeded() {
        // given
        JobService service = service(store, line -> { });
        InferenceJob job = ((SubmitOutcome.Accepted) service.submit("{\"prompt\":\"Hi\"}", CALLER)).job();
        probe.put(JobLayout.resultKey(job.requestId()), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.text("Hello", JobResult.Usage.of(1, 1), "stop"),
                new JobResult.Provenance(Tier.of("small"), "m", "1", "t", 1, 1L, 1L), NOW)));

        // when
        StatusOutcome.Found found = (StatusOutcome.Found) service.status(job.visibleRequestId().toUpperCase(), CALLER);

        // then
        assertThat(found.view().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(found.links().result().toString()).contains(JobLayout.resultKey(job.requestId()));
        assertThat(found.links().audio()).isNull();
        assertThat(found.links().resultLocation()).isEqualTo("s3://" + aws.bucket() + "/"
                + JobLayout.resultKey(job.requestId()));
        assertThat(found.links().audioLocation()).isNull();
        assertThat(found.links().expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(15)));
    }

    @Test
    void status_shouldPresignTheVectorsObject_whenAnEmbeddingResultKeepsItsVectorsOutOfLine() {
        // given: a finished embedding job whose worker wrote its vectors to their own object
        JobService service = service(store, line -> { });
        InferenceJob job = ((SubmitOutcome.Accepted) service.submit("{\"task\":\"embed\",\"input\":\"Hi\"}",
                CALLER)).job();
        EmbeddingResponse vectors = EmbeddingResponse.of(List.of(new float[] {0.6f, 0.8f}), EncodingFormat.FLOAT,
                "m", 1);
        String vectorsKey = JobLayout.embeddingsKey(job.requestId());
        probe.put(vectorsKey, JobJson.write(vectors));
        probe.put(JobLayout.resultKey(job.requestId()), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.embeddings(vectors).withEmbeddingsAt(vectorsKey),
                new JobResult.Provenance(Tier.of("embed"), "m", "1", "t", 1, 1L, 1L), NOW)));

        // when
        StatusOutcome.Found found = (StatusOutcome.Found) service.status(job.visibleRequestId(), CALLER);

        // then: a presigned link and an S3 URI of the vectors, beside the result's
        assertThat(found.links().embeddings()).isNotNull();
        assertThat(found.links().embeddings().getPath()).endsWith("/" + vectorsKey);
        assertThat(found.links().embeddingsLocation()).isEqualTo("s3://" + aws.bucket() + "/" + vectorsKey);
        assertThat(found.links().audio()).isNull();
        assertThat(found.view().result().result().embeddingsKey()).isEqualTo(vectorsKey);
    }

    @Test
    void status_shouldGiveNoVectorsLink_whenAnEmbeddingResultCarriesItsVectorsInline() {
        // given
        JobService service = service(store, line -> { });
        InferenceJob job = ((SubmitOutcome.Accepted) service.submit("{\"task\":\"embed\",\"input\":\"Hi\"}",
                CALLER)).job();
        EmbeddingResponse vectors = EmbeddingResponse.of(List.of(new float[] {1f}), EncodingFormat.FLOAT, "m", 1);
        probe.put(JobLayout.resultKey(job.requestId()), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.embeddings(vectors), new JobResult.Provenance(Tier.of("embed"), "m", "1", "t", 1,
                        1L, 1L), NOW)));

        // when
        StatusOutcome.Found found = (StatusOutcome.Found) service.status(job.visibleRequestId(), CALLER);

        // then
        assertThat(found.links().embeddings()).isNull();
        assertThat(found.links().embeddingsLocation()).isNull();
        assertThat(found.view().result().result().embeddings().data()).hasSize(1);
    }

    @Test
    void status_shouldPresignOnlyTheAudioKeyDerivedFromTheJobsId_whenTheStoredResultNamesAnotherKey() {
        // given: a speech result naming another job's WAV (a result written by anything but our worker)
        JobService service = service(store, line -> { });
        InferenceJob job = ((SubmitOutcome.Accepted) service.submit(
                "{\"task\":\"speech\",\"prompt\":\"Hello\",\"voice\":\"kevin16\"}", CALLER)).job();
        String planted = JobLayout.audioKey(UUID.randomUUID().toString());
        probe.put(JobLayout.resultKey(job.requestId()), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.audio(planted, "wav", 16_000, 1_000),
                new JobResult.Provenance(Tier.of("small"), "m", "1", "t", 1, 1L, 1L), NOW)));

        // when
        StatusOutcome.Found found = (StatusOutcome.Found) service.status(job.visibleRequestId(), CALLER);

        // then: the links name the job's own audio key, never the one the result names
        String own = JobLayout.audioKey(job.requestId());
        assertThat(found.links().audio().getPath()).endsWith("/" + own).doesNotContain(planted);
        assertThat(found.links().audioLocation()).isEqualTo("s3://" + aws.bucket() + "/" + own);
    }

    @Test
    void status_shouldGiveTheResultsS3LocationOnlyToTheJobsOwner_whenAnotherCallerAsksForTheSameId() {
        // given: a finished job of OWNER, stored under the id derived from OWNER and the client's requestId
        JobService service = service(store, line -> { });
        InferenceJob job = ((SubmitOutcome.Accepted) service.submit("{\"prompt\":\"Hi\"}", CALLER)).job();
        probe.put(JobLayout.resultKey(job.requestId()), JobJson.write(JobResult.succeeded(job,
                JobResult.Output.text("Hello", JobResult.Usage.of(1, 1), "stop"),
                new JobResult.Provenance(Tier.of("small"), "m", "1", "t", 1, 1L, 1L), NOW)));
        Owner other = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "someone-else"));

        // when
        StatusOutcome owners = service.status(job.visibleRequestId(), CALLER);
        StatusOutcome others = service.status(job.visibleRequestId(), CallerOwners.only(other));

        // then: the location names the stored id, not the requestId the client chose, and the object is there
        String location = ((StatusOutcome.Found) owners).links().resultLocation();
        assertThat(location).isEqualTo("s3://" + aws.bucket() + "/results/" + stored(job.visibleRequestId())
                + ".json").doesNotContain(job.visibleRequestId());
        assertThat(probe.object(location.substring(("s3://" + aws.bucket() + "/").length()))).isPresent();
        assertThat(others).isInstanceOf(StatusOutcome.NotFound.class);
    }

    @Test
    void submit_shouldTakeTheMarkerBackAndAnswerUnavailable_whenSqsCannotBeReached() {
        // given
        JobService service = service(store, unreachableQueue(), FaultInjection.none());
        String id = UUID.randomUUID().toString();

        // when
        SubmitOutcome outcome = service.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}", CALLER);

        // then
        assertThat(outcome).isEqualTo(new SubmitOutcome.Unavailable(id,
                "the small queue is unavailable; the job was not accepted, retry later"));
        assertThat(probe.marker(stored(id))).isEmpty();
    }

    @Test
    void submit_shouldTakeTheMarkerBackAndFailAsABug_whenSqsRefusesTheMessageAsAClientError() {
        // given: QueueDoesNotExist is a 400 from SQS: not an outage, retrying cannot help
        SqsJobQueue missing = queue(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE) + "-gone");
        JobService service = service(store, missing, FaultInjection.none());
        String id = UUID.randomUUID().toString();

        // when, then
        assertThatThrownBy(() -> service.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}", CALLER))
                .isInstanceOf(QueueRejectedMessageException.class).hasMessageContaining(stored(id));
        assertThat(probe.marker(stored(id))).isEmpty();
    }

    @Test
    void submit_shouldLeaveTheMarkerAndEnqueueOnTheRetry_whenSendAndTakeBackBothFail() {
        // given: SQS unreachable and the marker delete failing too (S3 trouble)
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";
        SubmitOutcome first = service(new UndeletableStore(store), unreachableQueue(), FaultInjection.none())
                .submit(body, CALLER);
        assertThat(first).isInstanceOf(SubmitOutcome.Unavailable.class);
        assertThat(probe.marker(stored(id)).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);

        // when: the client retries once SQS is back
        SubmitOutcome retry = later().submit(body, CALLER);

        // then: answered with the job's status, and really on the queue
        assertThat(retry).isInstanceOf(SubmitOutcome.Duplicate.class);
        assertThat(((SubmitOutcome.Duplicate) retry).view().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    @Test
    void submit_shouldEnqueueOnTheRetry_whenTheInvocationDiedBetweenMarkerAndSend() {
        // given: the fault hook kills the first invocation right after its marker write
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";
        FaultInjection alwaysDie = new FaultInjection(1.0, () -> 0.5);
        JobService dying = service(store, queue(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE)), alwaysDie);
        assertThatThrownBy(() -> dying.submit(body, CALLER)).isInstanceOf(InjectedFaultException.class);
        assertThat(probe.marker(stored(id))).isPresent();
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();

        // when
        SubmitOutcome retry = later().submit(body, CALLER);

        // then
        assertThat(retry).isInstanceOf(SubmitOutcome.Duplicate.class);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    @Test
    void submit_shouldKeepTheConcurrentResubmissionTrue_whenTheOriginalSendFailsAfterItAnswered() {
        // given: A's send fails, but only after B resubmitted the same requestId and got its answer
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";
        JobService b = later();
        AtomicReference<SubmitOutcome> answerToB = new AtomicReference<>();
        JobQueue failsAfterB = (job, tier) -> {
            answerToB.set(b.submit(body, CALLER));
            throw new QueueUnavailableException("SQS went away", null);
        };

        // when
        SubmitOutcome answerToA = service(store, failsAfterB, FaultInjection.none()).submit(body, CALLER);

        // then: A was refused; B was told queued, and that is true: the marker stayed and the job is queued
        assertThat(answerToA).isInstanceOf(SubmitOutcome.Unavailable.class);
        assertThat(answerToB.get()).isInstanceOf(SubmitOutcome.Duplicate.class);
        assertThat(((SubmitOutcome.Duplicate) answerToB.get()).view().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(probe.marker(stored(id)).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    @Test
    void submit_shouldNotEnqueueAgain_whenResubmittedJobIsRunning() {
        // given
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}";
        JobService service = service(store, line -> { });
        service.submit(body, CALLER);
        probe.purgeTierQueues();
        JobStore.StoredMarker queued = store.readMarker(stored(id)).orElseThrow();
        store.replaceMarker(queued.state().running("task", NOW), queued.eTag());

        // when
        SubmitOutcome outcome = service.submit(body, CALLER);

        // then
        assertThat(((SubmitOutcome.Duplicate) outcome).view().status()).isEqualTo(JobStatus.RUNNING);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
    }

    @Test
    void submit_shouldStillEnqueue_whenTheCreateIsRetriedAfterItsFirstAttemptWroteTheMarker() {
        // given a store whose create writes the marker but reports 412, as an SDK retry of a timed-out PUT does
        JobService service = service(new RetriedCreateStore(store), line -> { });
        String id = UUID.randomUUID().toString();

        // when
        SubmitOutcome outcome = service.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"Hi\"}", CALLER);

        // then
        assertThat(outcome).isInstanceOf(SubmitOutcome.Accepted.class);
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).extracting(m -> LocalAwsProbe.job(m).visibleRequestId())
                .containsExactly(id);
    }

    @Test
    void submit_shouldAnswerDuplicateOnTheFirstTierAndEnqueueNothing_whenADifferentRequestReusesTheRequestId() {
        // given
        String id = UUID.randomUUID().toString();
        JobService service = service(store, line -> { });
        service.submit("{\"requestId\":\"" + id + "\",\"prompt\":\"First\"}", CALLER);
        probe.purgeTierQueues();

        // when: same clock instant, so only the content (tier) tells the markers apart
        SubmitOutcome outcome = service.submit("{\"requestId\":\"" + id
                + "\",\"prompt\":\"Second\",\"route\":\"large\"}", CALLER);

        // then: the first request's status; the second request is not the queued job, so nothing is enqueued
        assertThat(outcome).isInstanceOf(SubmitOutcome.Duplicate.class);
        assertThat(((SubmitOutcome.Duplicate) outcome).view().tier()).isEqualTo(Tier.of("small"));
        assertThat(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE)).isEmpty();
        assertThat(probe.drain(LocalAws.ESCALATION_QUEUE)).isEmpty();
    }

    private JobService service(JobStore jobStore, Consumer<String> metricsSink) {
        return new JobService(new JobRequestParser(), RoutingPolicy.defaults(), JobLifecycle.of(jobStore,
                queue(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE)), CLOCK), jobStore,
                new RoutingMetrics(metricsSink, CLOCK), CLOCK, Duration.ofMinutes(15));
    }

    private JobService later() {
        return new JobService(new JobRequestParser(), RoutingPolicy.defaults(), JobLifecycle.of(store,
                queue(aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE)), LATER), store,
                new RoutingMetrics(line -> { }, LATER), LATER, Duration.ofMinutes(15));
    }

    private JobService service(JobStore jobStore, JobQueue queue, FaultInjection faults) {
        return new JobService(new JobRequestParser(), RoutingPolicy.defaults(), JobLifecycle.of(jobStore, queue,
                CLOCK, faults::afterMarkerWritten, CacheShortcut.NONE, JobQuota.UNLIMITED), jobStore,
                new RoutingMetrics(line -> { }, CLOCK), CLOCK, Duration.ofMinutes(15));
    }

    private SqsJobQueue queue(String smallQueueUrl) {
        Map<Tier, String> urls = probe.tierQueueUrls();
        urls.put(Tier.of("small"), smallQueueUrl);
        return new SqsJobQueue(probe.sqs, urls, JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES, store::putPayload);
    }

    /** A queue whose SQS endpoint refuses connections (port 1): an outage, as the SDK sees one. */
    private SqsJobQueue unreachableQueue() {
        SqsClient dead = SqsClient.builder().endpointOverride(URI.create("http://127.0.0.1:1"))
                .region(Region.of(LocalAws.REGION)).credentialsProvider(LocalAws.credentials()).build();
        return new SqsJobQueue(dead, probe.tierQueueUrls(), JobMessage.SQS_DEFAULT_MAX_MESSAGE_BYTES,
                store::putPayload);
    }

    /** Writes the marker through the real store, then answers "already exists" like a retried create would. */
    private static final class RetriedCreateStore extends ForwardingStore {
        RetriedCreateStore(JobStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<String> createMarker(JobState marker) {
            assertThat(super.createMarker(marker)).isPresent();
            return super.createMarker(marker);
        }
    }

    /** The real store, except that deleting a marker fails as when S3 cannot be reached. */
    private static final class UndeletableStore extends ForwardingStore {
        UndeletableStore(JobStore delegate) {
            super(delegate);
        }

        @Override
        public boolean deleteMarker(String requestId, String eTag) {
            throw new StoreUnavailableException("S3 unreachable (test)", null);
        }
    }

    /** Delegates to the real store, but a "worker" rewrites the marker as running before each replace. */
    private static final class WorkerRacingStore extends ForwardingStore {
        WorkerRacingStore(JobStore delegate) {
            super(delegate);
        }

        @Override
        public boolean replaceMarker(JobState marker, String eTag) {
            JobState running = readMarker(marker.requestId()).orElseThrow().state().running("task", NOW);
            probe.s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.markerKey(marker.requestId())),
                    RequestBody.fromString(JobJson.write(running)));
            return super.replaceMarker(marker, eTag);
        }
    }

    /** A JobStore passing every call to the real one; subclasses interpose on one call. */
    private abstract static class ForwardingStore implements JobStore {
        private final JobStore delegate;

        ForwardingStore(JobStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<String> createMarker(JobState marker) {
            return delegate.createMarker(marker);
        }

        @Override
        public Optional<StoredMarker> readMarker(String requestId) {
            return delegate.readMarker(requestId);
        }

        @Override
        public Optional<JobResult> readResult(String requestId) {
            return delegate.readResult(requestId);
        }

        @Override
        public boolean replaceMarker(JobState marker, String eTag) {
            return delegate.replaceMarker(marker, eTag);
        }

        @Override
        public boolean deleteMarker(String requestId, String eTag) {
            return delegate.deleteMarker(requestId, eTag);
        }

        @Override
        public void putPayload(String key, String json) {
            delegate.putPayload(key, json);
        }

        @Override
        public URL presignGet(String key, Duration ttl) {
            return delegate.presignGet(key, ttl);
        }

        @Override
        public String location(String key) {
            return delegate.location(key);
        }
    }

    /** Where the job {@link #OWNER} submitted as {@code clientId} is stored. */
    private static String stored(String clientId) {
        return JobIds.stored(OWNER, clientId);
    }
}
