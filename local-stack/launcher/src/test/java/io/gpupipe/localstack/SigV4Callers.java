package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.apigateway.LocalIamPrincipals;
import io.gpupipe.localstack.apigateway.SigV4Signing;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * SigV4 callers through the whole local stack, signed by the AWS SDK for Java's own signer as a real SDK user signs
 * (the facade's IAM authorizer, the real router package, a speech worker): two sessions of one assumed role are one
 * caller (they see each other's jobs, and a retry from the second session is a resubmission: one job, one result),
 * another role is another caller, and a bad signature, another service, another region or a stale date is refused
 * with API Gateway's 403. The stack requires a caller ({@code --require-token}), so the router takes either
 * authorizer's identity and refuses a request without one. Run as {@code ClientExamplesTest$SigV4CallerTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SigV4Callers {
    private static final Duration JOB_LIMIT = Duration.ofSeconds(90);

    private LocalIamPrincipals.Principal roleASession1;
    private LocalIamPrincipals.Principal roleASession2;
    private LocalIamPrincipals.Principal roleBSession1;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * A started stack with {@code --require-token} and a speech worker: the stack of the class these checks are
     * nested in ({@link ClientExamplesTest}, whose options are these), so they cost no stack start of their own.
     */
    abstract LocalStack stack();

    @BeforeAll
    void readSessions() {
        List<LocalIamPrincipals.Principal> sessions = stack().callers().principals().all();
        roleASession1 = sessions.get(0);
        roleASession2 = sessions.get(1);
        roleBSession1 = sessions.get(2);
        assertThat(roleASession1.roleName()).isEqualTo(roleASession2.roleName()).isNotEqualTo(roleBSession1
                .roleName());
        assertThat(roleASession1.sessionName()).isNotEqualTo(roleASession2.sessionName());
    }

    @Test
    void sessionsOfOneRole_shouldSeeEachOthersJobs_andARetryFromTheSecondIsAResubmission() {
        // given: the first session of role A submits a speech job
        String id = UUID.randomUUID().toString();
        String body = "{\"requestId\":\"" + id + "\",\"task\":\"speech\",\"prompt\":\"One job for the role.\"}";
        Reply submitted = send(signer(roleASession1), "POST", "/v1/jobs", body);
        assertThat(submitted.status()).as(submitted.body().toString()).isEqualTo(202);

        // when: the second session reads it until it is done, then retries the same requestId
        Reply seen = send(signer(roleASession2), "GET", "/v1/jobs/" + id, null);
        JsonNode done = awaitTerminal(signer(roleASession2), id);
        Reply retried = send(signer(roleASession2), "POST", "/v1/jobs", body);

        // then: the second session sees the first one's job, and its retry is that job (200), not a second one
        assertThat(seen.status()).as(seen.body().toString()).isEqualTo(200);
        assertThat(seen.body().path("requestId").asText()).isEqualTo(id);
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("succeeded");
        assertThat(retried.status()).as(retried.body().toString()).isEqualTo(200);
        assertThat(retried.body().path("requestId").asText()).isEqualTo(id);
        assertThat(retried.body().path("status").asText()).isEqualTo("succeeded");
        // and one result: under the role's stored id, none under either session's own
        assertThat(resultsNamed(id)).containsExactly(JobLayout.resultKey(JobIds.stored(owner(new CallerIdentity.IamRole(
                "aws", "000000000000", roleASession1.roleName())), id)));
        // while a session of another role is another caller
        Reply otherRole = send(signer(roleBSession1), "GET", "/v1/jobs/" + id, null);
        assertThat(otherRole.status()).as(otherRole.body().toString()).isEqualTo(404);
    }

    @Test
    void anotherRole_shouldBeAnotherCaller_evenWithTheSameRequestId() {
        // given
        String id = UUID.randomUUID().toString();
        Reply byA = send(signer(roleASession1), "POST", "/v1/jobs", "{\"requestId\":\"" + id + "\","
                + "\"prompt\":\"Wait here.\",\"route\":\"large\"}");
        assertThat(byA.status()).as(byA.body().toString()).isEqualTo(202);

        // when
        Reply readByB = send(signer(roleBSession1), "GET", "/v1/jobs/" + id, null);
        Reply cancelByB = send(signer(roleBSession1), "DELETE", "/v1/jobs/" + id, null);

        // then
        assertThat(readByB.status()).as(readByB.body().toString()).isEqualTo(404);
        assertThat(cancelByB.status()).isEqualTo(404);
        Reply stillA = send(signer(roleASession2), "GET", "/v1/jobs/" + id, null);
        assertThat(stillA.body().path("status").asText()).as(stillA.body().toString()).isEqualTo("queued");
        assertThat(send(signer(roleASession2), "DELETE", "/v1/jobs/" + id, null).status()).isEqualTo(202);
    }

    @Test
    void badSignatures_shouldGetApiGateways403_andReachNoJob() {
        // given: a job of role A's
        String id = UUID.randomUUID().toString();
        assertThat(send(signer(roleASession1), "POST", "/v1/jobs", "{\"requestId\":\"" + id + "\","
                + "\"prompt\":\"Wait here.\",\"route\":\"large\"}").status()).isEqualTo(202);
        Instant now = Instant.now();
        Map<String, SigV4Signing> refused = new LinkedHashMap<>();
        refused.put("another secret", signer(roleASession1).withCredentials(
                software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity.create(roleASession1.accessKeyId(),
                        roleBSession1.secretAccessKey(), roleASession1.sessionToken())));
        refused.put("service s3", signer(roleASession1).withService("s3"));
        refused.put("another region", signer(roleASession1).withRegion("eu-west-1"));
        refused.put("signed 10 minutes ago", signer(roleASession1).withClock(Clock.fixed(now.minus(
                Duration.ofMinutes(10)), ZoneOffset.UTC)));

        refused.forEach((why, signing) -> {
            // when
            List<Reply> replies = List.of(send(signing, "GET", "/v1/jobs/" + id, null),
                    send(signing, "DELETE", "/v1/jobs/" + id, null),
                    send(signing, "POST", "/v1/jobs", "{\"prompt\":\"x\"}"));
            // then
            assertThat(replies).as(why).allSatisfy(reply -> {
                assertThat(reply.status()).isEqualTo(403);
                assertThat(reply.body().path("message").asText()).isEqualTo("Forbidden");
            });
        });
        Reply stillQueued = send(signer(roleASession2), "GET", "/v1/jobs/" + id, null);
        assertThat(stillQueued.body().path("status").asText()).isEqualTo("queued");
        assertThat(send(signer(roleASession1), "DELETE", "/v1/jobs/" + id, null).status()).isEqualTo(202);
    }

    private static SigV4Signing signer(LocalIamPrincipals.Principal session) {
        return SigV4Signing.as(session, LocalAws.REGION);
    }

    /** {@code caller}'s owner id, as the stack's router derives it. */
    private Owner owner(CallerIdentity caller) {
        return stack().aws().ownerIds().of(caller);
    }

    /** The result objects in the bucket whose stored id derives from {@code clientId} for any of the sessions. */
    private List<String> resultsNamed(String clientId) {
        List<String> candidates = List.of(
                owner(new CallerIdentity.IamRole("aws", "000000000000", roleASession1.roleName())),
                owner(new CallerIdentity.Iam(roleASession1.userArn(), null, null)),
                owner(new CallerIdentity.Iam(roleASession2.userArn(), null, null))).stream()
                .map(owner -> JobLayout.resultKey(JobIds.stored(owner, clientId))).toList();
        try (S3Client s3 = stack().aws().newS3Client()) {
            return s3.listObjectsV2Paginator(b -> b.bucket(stack().aws().bucket()).prefix("results/")).contents()
                    .stream().map(o -> o.key()).filter(candidates::contains).toList();
        }
    }

    private record Reply(int status, JsonNode body) {
    }

    /** Polls the job's status until it is terminal. */
    private JsonNode awaitTerminal(SigV4Signing signing, String id) {
        return await("job " + id + " to finish").atMost(JOB_LIMIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).until(() -> send(signing, "GET", "/v1/jobs/" + id, null).body(),
                        body -> List.of("succeeded", "failed", "cancelled").contains(body.path("status").asText()));
    }

    /** One request signed as {@code signing} says, sent as the SDK would send it (the signed headers as signed). */
    private Reply send(SigV4Signing signing, String method, String path, String body) {
        URI uri = stack().apiUri().resolve(path);
        Map<String, String> headers = body == null ? Map.of() : Map.of("Content-Type", "application/json");
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        // Host is set by the client from the URI (a restricted header), to the value that was signed
        signing.sign(method, uri, headers, body).forEach((name, values) -> values.forEach(value -> {
            if (!"host".equalsIgnoreCase(name)) {
                request.header(name, value);
            }
        }));
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body().isEmpty() ? JobJson.mapper().createObjectNode()
                    : JobJson.mapper().readTree(response.body()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
