package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.jobs.port.StoreUnavailableException;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobState;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** The S3 adapter against S3Proxy: the conditional writes the router and the batch function rely on really are conditional. */
class S3JobStoreTest {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static LocalAws aws;
    private static S3Client s3;
    private static S3Presigner presigner;
    private static S3JobStore store;

    @BeforeAll
    static void startLocalAws() {
        aws = LocalAws.start();
        s3 = aws.newS3Client();
        presigner = aws.newS3Presigner();
        store = new S3JobStore(s3, presigner, aws.bucket());
    }

    @AfterAll
    static void stopLocalAws() {
        presigner.close();
        s3.close();
        aws.close();
    }

    @Test
    void createMarker_shouldRefuseAndKeepTheFirst_whenMarkerExists() {
        // given
        JobState first = queued(UUID.randomUUID().toString(), Tier.of("small"));
        assertThat(store.createMarker(first)).isPresent();

        // when
        Optional<String> second = store.createMarker(new JobState(first.requestId(), JobStatus.QUEUED, Tier.of("large"),
                Task.GENERATE, NOW, NOW, null, null));

        // then
        assertThat(second).isEmpty();
        assertThat(store.readMarker(first.requestId()).orElseThrow().state().tier()).isEqualTo(Tier.of("small"));
    }

    @Test
    void replaceMarker_shouldSucceedOnce_whenTwoWritersHoldTheSameEtag() {
        // given
        JobState queued = queued(UUID.randomUUID().toString(), Tier.of("small"));
        store.createMarker(queued);
        String eTag = store.readMarker(queued.requestId()).orElseThrow().eTag();

        // when
        boolean cancelled = store.replaceMarker(queued.cancelled(NOW.plusSeconds(1)), eTag);
        boolean started = store.replaceMarker(queued.running("task", NOW.plusSeconds(2)), eTag);

        // then
        assertThat(cancelled).isTrue();
        assertThat(started).isFalse();
        assertThat(store.readMarker(queued.requestId()).orElseThrow().state().status())
                .isEqualTo(JobStatus.CANCELLED);
    }

    @Test
    void replaceMarker_shouldRefuse_whenMarkerWasDeleted() {
        JobState queued = queued(UUID.randomUUID().toString(), Tier.of("small"));
        String eTag = store.createMarker(queued).orElseThrow();
        assertThat(store.deleteMarker(queued.requestId(), eTag)).isTrue();
        assertThat(store.replaceMarker(queued.cancelled(NOW), eTag)).isFalse();
        assertThat(store.readMarker(queued.requestId())).isEmpty();
    }

    @Test
    void deleteMarker_shouldKeepTheMarker_whenAnotherCallRewroteIt() {
        // given: our create's ETag, then a resubmission's rewrite
        JobState queued = queued(UUID.randomUUID().toString(), Tier.of("small"));
        String ours = store.createMarker(queued).orElseThrow();
        assertThat(store.replaceMarker(queued.requeued(NOW.plusSeconds(1)), ours)).isTrue();

        // when
        boolean deleted = store.deleteMarker(queued.requestId(), ours);

        // then: S3 (and S3Proxy) honour If-Match on DeleteObject
        assertThat(deleted).isFalse();
        assertThat(store.readMarker(queued.requestId()).orElseThrow().state().updatedAt())
                .isEqualTo(NOW.plusSeconds(1));
    }

    @Test
    void deleteMarker_shouldNotFail_whenTheMarkerIsAlreadyGone() {
        // S3 answers 404 (false here); S3Proxy 4.1.0 answers 204 (true): either way nothing is left and nothing throws
        JobState queued = queued(UUID.randomUUID().toString(), Tier.of("small"));
        String eTag = store.createMarker(queued).orElseThrow();
        assertThat(store.deleteMarker(queued.requestId(), eTag)).isTrue();
        store.deleteMarker(queued.requestId(), eTag);
        assertThat(store.readMarker(queued.requestId())).isEmpty();
    }

    @Test
    void read_shouldBeEmpty_whenObjectsDoNotExist() {
        String id = UUID.randomUUID().toString();
        assertThat(store.readMarker(id)).isEmpty();
        assertThat(store.readResult(id)).isEmpty();
    }

    @Test
    void read_shouldThrowStoreUnavailable_whenBucketDoesNotExist() {
        S3JobStore misconfigured = new S3JobStore(s3, presigner, "no-such-bucket");
        String id = UUID.randomUUID().toString();
        assertThatThrownBy(() -> misconfigured.readMarker(id)).isInstanceOf(StoreUnavailableException.class);
        assertThatThrownBy(() -> misconfigured.createMarker(queued(id, Tier.of("small"))))
                .isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void presignGet_shouldGiveAUrlThatServesTheObject_whenFetchedWithoutCredentials() throws Exception {
        // given
        String key = JobLayout.resultKey(UUID.randomUUID().toString());
        s3.putObject(b -> b.bucket(aws.bucket()).key(key), RequestBody.fromString("{\"status\":\"succeeded\"}"));

        // when
        URL url = store.presignGet(key, Duration.ofMinutes(5));

        // then
        assertThat(url.toString()).startsWith(aws.s3Endpoint() + "/" + aws.bucket() + "/" + key)
                .contains("X-Amz-Expires=300");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(url.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"status\":\"succeeded\"}");
    }

    private static JobState queued(String id, Tier tier) {
        InferenceJob job = JobJson.read("{\"requestId\":\"" + id + "\",\"task\":\"generate\",\"prompt\":\"Hi\"}",
                InferenceJob.class).withSubmittedAt(NOW);
        return JobState.queued(job, tier, NOW);
    }
}
