package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.apigateway.HttpApiRoute;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The console's job list on the real local S3 (S3Proxy) and its event stream, fed API answers as the facade does. */
class RecentJobsTest {
    private static final Tier SMALL = Tier.of("small");
    private static LocalAws aws;
    private static S3Client s3;

    private final AtomicInteger reads = new AtomicInteger();
    private RecentJobs jobs;

    @BeforeAll
    static void startAws() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
    }

    @AfterAll
    static void stopAws() {
        s3.close();
        aws.close();
    }

    @BeforeEach
    void newList() {
        jobs = new RecentJobs(aws.bucket(), this::read, Clock.systemUTC(), aws.ownerIds());
        aws.onObjectCreated(jobs);
    }

    @Test
    void newest_shouldFollowAJob_fromTheApisAnswerToItsResult() {
        // given the API accepted a job (the router wrote its marker first)
        String id = UUID.randomUUID().toString();
        // stored under the id derived from its caller (the anonymous one here) and the client's id
        String stored = JobIds.stored(aws.ownerIds().of(CallerIdentity.ANONYMOUS), id);
        Instant submitted = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        put(JobLayout.markerKey(stored), new JobState(stored, JobStatus.QUEUED, SMALL, Task.GENERATE, submitted, submitted,
                null, null));
        answer(id, "{\"prompt\":\"Once upon a time\",\"maxTokens\":8}");
        // then it reads queued, with the API's tier and its prompt, and its tier's queue has waited since then
        JobRow queued = only(jobs.newest(10));
        assertThat(queued.status()).isEqualTo("queued");
        assertThat(queued.tier()).isEqualTo("small");
        assertThat(queued.prompt()).isEqualTo("Once upon a time");
        assertThat(queued.submittedAt()).isEqualTo(submitted);
        assertThat(queued.requestSeen()).isTrue();
        assertThat(jobs.oldestQueued()).containsKey("small");
        // when a worker starts it
        Instant started = submitted.plusMillis(40);
        put(JobLayout.markerKey(stored), new JobState(stored, JobStatus.RUNNING, SMALL, Task.GENERATE, submitted, started,
                started, "arn:task"));
        // then
        JobRow running = only(jobs.newest(10));
        assertThat(running.status()).isEqualTo("running");
        assertThat(running.startedAt()).isEqualTo(started);
        assertThat(jobs.oldestQueued()).doesNotContainKey("small");
        // when its result and a notification are written
        Instant finished = started.plusMillis(300);
        put(JobLayout.resultKey(stored), result(stored, JobStatus.SUCCEEDED, finished));
        put(JobLayout.notificationKey(stored, "published"), JobJson.mapper().createObjectNode().put("messageId", "m1"));
        // then
        JobRow done = only(jobs.newest(10));
        assertThat(done.status()).isEqualTo("succeeded");
        assertThat(done.finishedAt()).isEqualTo(finished);
        assertThat(done.notifications()).containsExactly("published");
        assertThat(done.cached()).isFalse();
        assertThat(done.requestId()).as("shown by the client's id").isEqualTo(id);
        assertThat(jobs.find(id)).isPresent();
        assertThat(jobs.notifications(id)).containsExactly("published");
    }

    @Test
    void newest_shouldReadAFinishedJobsResultOnce_andNothingAfter() {
        // given a finished job, looked at once
        String id = UUID.randomUUID().toString();
        put(JobLayout.markerKey(id), new JobState(id, JobStatus.RUNNING, SMALL, Task.GENERATE, Instant.now(),
                Instant.now(), Instant.now(), "arn:task"));
        put(JobLayout.resultKey(id), result(id, JobStatus.FAILED, Instant.now().truncatedTo(ChronoUnit.MILLIS)));
        jobs.newest(10);
        int afterFirstLook = reads.get();
        // when a page keeps refreshing
        for (int i = 0; i < 5; i++) {
            jobs.newest(10);
        }
        // then only the result was read (it says when the job was submitted and started), and only once
        assertThat(afterFirstLook).isEqualTo(1);
        assertThat(reads.get()).isEqualTo(afterFirstLook);
        JobRow row = only(jobs.newest(10));
        assertThat(row.status()).isEqualTo("failed");
        assertThat(row.startedAt()).isEqualTo(row.finishedAt().minusMillis(300));
        assertThat(row.submittedAt()).isEqualTo(row.startedAt().minusMillis(2000));
    }

    @Test
    void newest_shouldShowAJobSentStraightToAQueue_withoutARequest() {
        // given only the worker's objects (no API answer, no queued marker)
        String id = UUID.randomUUID().toString();
        put(JobLayout.markerKey(id), new JobState(id, JobStatus.RUNNING, SMALL, Task.GENERATE, Instant.now(),
                Instant.now(), Instant.now(), "arn:task"));
        put(JobLayout.resultKey(id), result(id, JobStatus.SUCCEEDED, Instant.now()));
        // when
        JobRow row = only(jobs.newest(10));
        // then
        assertThat(row.status()).isEqualTo("succeeded");
        assertThat(row.requestSeen()).isFalse();
        assertThat(row.tier()).isEqualTo("small");
        assertThat(jobs.request(id)).isEmpty();
    }

    @Test
    void answered_shouldIgnoreRefusedRequests_andKeepOnlyTheNewestJobs() {
        // given
        answered("POST", "/v1/jobs", "{}", 400, "{\"errors\":[]}");
        for (int i = 0; i < RecentJobs.CAPACITY + 5; i++) {
            answer(UUID.randomUUID().toString(), "{\"prompt\":\"job " + i + "\"}");
        }
        // when
        List<JobRow> rows = jobs.newest(RecentJobs.CAPACITY * 2);
        // then
        assertThat(rows).hasSize(RecentJobs.CAPACITY);
        assertThat(rows.get(0).prompt()).isEqualTo("job " + (RecentJobs.CAPACITY + 4));
        assertThat(rows.get(rows.size() - 1).prompt()).isEqualTo("job 5");
    }

    @Test
    void newestOfAnOwner_shouldListOnlyItsJobs_andNameItsOwnIdsOnly() {
        // given: jobs of two callers through the API, one sent straight to a queue by a producer that names A
        CallerIdentity callerA = new CallerIdentity.Jwt(LocalCallers.ISSUER, LocalCallers.CALLER_A);
        CallerIdentity callerB = new CallerIdentity.Jwt(LocalCallers.ISSUER, LocalCallers.CALLER_B);
        Owner a = aws.ownerIds().of(callerA);
        Owner b = aws.ownerIds().of(callerB);
        String ofA = UUID.randomUUID().toString();
        String ofB = UUID.randomUUID().toString();
        answer(callerA, ofA, "{\"prompt\":\"A's\"}");
        answer(callerB, ofB, "{\"prompt\":\"B's\"}");
        String direct = UUID.randomUUID().toString();
        Instant now = Instant.now();
        put(JobLayout.markerKey(direct), new JobState(direct, JobStatus.QUEUED, SMALL, Task.GENERATE, now, now, null,
                null, null, null, a.value(), null));

        // when, then: each sees its own (A also the queue job naming it), the operator's view every job
        assertThat(jobs.newest(10, b)).extracting(JobRow::requestId).containsExactly(ofB);
        assertThat(jobs.newest(10, a)).extracting(JobRow::requestId).containsExactly(direct, ofA);
        assertThat(jobs.newest(10)).extracting(JobRow::requestId).containsExactly(direct, ofB, ofA);
        // and an id names the job in the caller's own namespace: B naming A's id finds no job of A
        assertThat(jobs.storedIdOf(ofA, a)).isEqualTo(JobIds.stored(a, ofA));
        assertThat(jobs.storedIdOf(ofA, b)).isNotEqualTo(JobIds.stored(a, ofA));
        assertThat(jobs.find(jobs.storedIdOf(ofA, b))).isEmpty();
        assertThat(jobs.storedIdOf(direct, a)).isEqualTo(direct);
        assertThat(jobs.storedIdOf(direct, b)).isNotEqualTo(direct);
    }

    @Test
    void excerpt_shouldTakeTheLastUserMessageOfAChat_andCutLongPrompts() {
        assertThat(JobRow.excerpt(("{\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":"
                + "\"user\",\"content\":\"Tell me about Lily.\"}]}").getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("Tell me about Lily.");
        String excerpt = JobRow.excerpt(("{\"prompt\":\"" + "a".repeat(500) + "\"}").getBytes(StandardCharsets.UTF_8));
        assertThat(excerpt).hasSize(JobRow.PROMPT_EXCERPT).endsWith("…");
    }

    private void answer(String id, String request) {
        answered("POST", "/v1/jobs", request, 202, "{\"requestId\":\"" + id + "\",\"tier\":\"small\","
                + "\"status\":\"queued\"}");
    }

    private void answer(CallerIdentity caller, String id, String request) {
        HttpApiRoute.Match route = HttpApiRoute.find(HttpApiRoute.ROUTER, "POST", "/v1/jobs").orElseThrow();
        jobs.answered(route, caller, request.getBytes(StandardCharsets.UTF_8), 202, ("{\"requestId\":\"" + id
                + "\",\"tier\":\"small\",\"status\":\"queued\"}").getBytes(StandardCharsets.UTF_8));
    }

    private void answered(String method, String path, String request, int status, String response) {
        HttpApiRoute.Match route = HttpApiRoute.find(HttpApiRoute.ROUTER, method, path).orElseThrow();
        jobs.answered(route, request.getBytes(StandardCharsets.UTF_8), status,
                response.getBytes(StandardCharsets.UTF_8));
    }

    private static JobResult result(String id, JobStatus status, Instant at) {
        return new JobResult(id, status, Task.GENERATE, status == JobStatus.SUCCEEDED
                ? JobResult.Output.text("Lily", JobResult.Usage.of(3, 1), "stop") : null,
                status == JobStatus.FAILED ? JobResult.JobError.of("model_error", "the model failed") : null, SMALL,
                "m", "v", 300L, 2000L, 1, "arn:task", null, at);
    }

    private static JobRow only(List<JobRow> rows) {
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    private static void put(String key, Object document) {
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString(JobJson.write(document)));
    }

    private Optional<byte[]> read(String key) {
        reads.incrementAndGet();
        try {
            return Optional.of(s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(key)).asByteArray());
        } catch (SdkException e) {
            return Optional.empty();
        }
    }
}
