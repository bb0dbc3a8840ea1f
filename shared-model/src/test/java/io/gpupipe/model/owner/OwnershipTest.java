package io.gpupipe.model.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.RequestIds;
import io.gpupipe.model.Tier;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.cache.CacheKey;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.job.JobView;
import io.gpupipe.model.seal.DeploymentKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Owners, per-owner request ids, and the owner carried by every document a job leaves behind. */
class OwnershipTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final Owner BOB = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "bob"));
    private static final String CLIENT_ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    private final JobRequestParser parser = new JobRequestParser();

    @Test
    void owner_shouldBeAStableIdThatTellsEveryIdentityApart_keyedOrNot() {
        List<CallerIdentity> identities = List.of(
                new CallerIdentity.Iam("arn:aws:iam::123456789012:user/alice", null, null),
                new CallerIdentity.Iam(null, "123456789012", "AIDAEXAMPLE"),
                new CallerIdentity.IamRole("aws", "123456789012", "alice"),
                new CallerIdentity.IamRole("aws", "123456789012", "user/alice"),
                new CallerIdentity.Jwt("https://idp.example.com", "alice"),
                new CallerIdentity.Jwt("https://idp.example.com/", "alice"),
                // a separator inside a part cannot make two identities one
                new CallerIdentity.Jwt("https://idp.example.com\",\"alice", "x"),
                new CallerIdentity.JwtTenant("https://idp.example.com", "tenant", "acme"),
                new CallerIdentity.JwtTenant("https://idp.example.com", "org", "acme"),
                CallerIdentity.ANONYMOUS);

        for (OwnerIds ids : List.of(OwnerIds.UNKEYED, DeploymentKey.of("ownership-test-key-".repeat(2)).ownerIds())) {
            Set<Owner> owners = identities.stream().map(ids::of).collect(Collectors.toSet());

            assertThat(owners).as(ids.toString()).hasSize(identities.size()).doesNotContain(Owner.QUEUE)
                    .allSatisfy(o -> assertThat(o.value()).matches((ids.isKeyed() ? "hmac-sha256" : "sha256")
                            + ":[0-9a-f]{64}"));
        }
        assertThat(OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"))).isEqualTo(ALICE);
        assertThatThrownBy(() -> new Owner("sha256:ABC")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void storedId_shouldDifferPerOwner_andBeAUuidV4() {
        String alices = JobIds.stored(ALICE, CLIENT_ID);
        String bobs = JobIds.stored(BOB, CLIENT_ID.toUpperCase());

        assertThat(alices).isNotEqualTo(bobs).isNotEqualTo(CLIENT_ID);
        assertThat(RequestIds.isValid(alices)).isTrue();
        assertThat(JobIds.stored(ALICE, CLIENT_ID.toUpperCase())).isEqualTo(alices);
        assertThat(JobIds.isStoredIdOf(alices, ALICE, CLIENT_ID)).isTrue();
        assertThat(JobIds.isStoredIdOf(alices, BOB, CLIENT_ID)).isFalse();
    }

    @Test
    void submittedBy_shouldCarryOwnerAndClientIdIntoMarkerResultAndView() {
        InferenceJob job = parsed("{\"requestId\":\"" + CLIENT_ID + "\",\"prompt\":\"hi\"}").submittedBy(ALICE);

        JobState marker = JobState.queued(job, Tier.of("small"), NOW).running("arn:task", NOW).cancelled(NOW);
        JobResult result = JobResult.failed(job, JobResult.JobError.of("x", "y"), null, NOW);
        JobView seen = JobView.of(job.requestId(), Optional.of(marker), Optional.of(result)).orElseThrow()
                .seenAs(CLIENT_ID);

        assertThat(job.requestId()).isEqualTo(JobIds.stored(ALICE, CLIENT_ID));
        assertThat(job.visibleRequestId()).isEqualTo(CLIENT_ID);
        assertThat(List.of(marker.owner(), result.owner())).containsOnly(ALICE.value());
        assertThat(marker.clientRequestId()).isEqualTo(CLIENT_ID);
        assertThat(seen.requestId()).isEqualTo(CLIENT_ID);
        assertThat(seen.result().requestId()).isEqualTo(CLIENT_ID);
        assertThat(seen.result().clientRequestId()).isNull();
    }

    @Test
    void parse_shouldIgnoreOwnerAndClientId_fromAnApiRequest() {
        InferenceJob job = parsed("{\"requestId\":\"" + CLIENT_ID + "\",\"prompt\":\"hi\",\"owner\":\"" + BOB
                + "\",\"clientRequestId\":\"" + UUID.randomUUID() + "\"}");

        assertThat(job.owner()).isNull();
        assertThat(job.clientRequestId()).isEqualTo(CLIENT_ID);
        assertThat(job.key().isRequested()).isTrue();
    }

    @Test
    void parse_shouldReadAQueueMessagesOwnership_onlyWhenItIsConsistent() {
        InferenceJob sent = parsed("{\"requestId\":\"" + CLIENT_ID + "\",\"prompt\":\"hi\"}").submittedBy(ALICE);
        String body = JobMessage.inline(sent);

        InferenceJob read = ((JobRequestParser.Outcome.Valid) parser.parse(body, JobRequestParser.Source.QUEUE))
                .job();
        String stolen = body.replace(sent.requestId(), JobIds.stored(BOB, CLIENT_ID));
        String badOwner = body.replace(ALICE.value(), "root");

        assertThat(read).isEqualTo(sent);
        assertThat(fieldsOf(parser.parse(stolen, JobRequestParser.Source.QUEUE))).containsExactly("clientRequestId");
        assertThat(fieldsOf(parser.parse(badOwner, JobRequestParser.Source.QUEUE)))
                .contains("owner");
    }

    @Test
    void cacheKey_shouldBePartitionedByOwner() {
        InferenceJob job = parsed("{\"requestId\":\"" + CLIENT_ID + "\",\"prompt\":\"hi\",\"temperature\":0}");

        assertThat(CacheKey.of("v1", job.submittedBy(ALICE))).isNotEqualTo(CacheKey.of("v1", job.submittedBy(BOB)));
        assertThat(CacheKey.of("v1", job.submittedBy(ALICE)))
                .isEqualTo(CacheKey.of("v1", parsed("{\"prompt\":\"hi\",\"temperature\":0}").submittedBy(ALICE)));
    }

    @Test
    void inputKey_shouldBeReadableOnlyByItsUploader() {
        String key = BatchLayout.inputKey(ALICE, UUID.randomUUID());

        assertThat(BatchLayout.isInputKey(key)).isTrue();
        assertThat(BatchLayout.isInputKeyOf(key, ALICE)).isTrue();
        assertThat(BatchLayout.isInputKeyOf(key, BOB)).isFalse();
        assertThat(BatchLayout.isInputKeyOf(key, Owner.QUEUE)).isFalse();
    }

    private InferenceJob parsed(String json) {
        return ((JobRequestParser.Outcome.Valid) parser.parse(json, JobRequestParser.Source.API)).job()
                .withSubmittedAt(NOW);
    }

    private static List<String> fieldsOf(JobRequestParser.Outcome outcome) {
        assertThat(outcome).isInstanceOf(JobRequestParser.Outcome.Invalid.class);
        return ((JobRequestParser.Outcome.Invalid) outcome).errors().stream().map(e -> e.field()).toList();
    }
}
