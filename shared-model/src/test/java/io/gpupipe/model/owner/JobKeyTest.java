package io.gpupipe.model.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One value for a job's identity: who owns it, the id its client chose, and the id it is stored under. */
class JobKeyTest {
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final Owner BOB = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "bob"));
    private static final String CLIENT_ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

    @Test
    void submitted_shouldStoreUnderTheDerivedId_andShowTheClientItsOwn() {
        JobKey key = JobKey.submitted(ALICE, CLIENT_ID.toUpperCase());

        assertThat(key.storedId()).isEqualTo(JobIds.stored(ALICE, CLIENT_ID)).isNotEqualTo(CLIENT_ID);
        assertThat(key.clientRequestId()).isEqualTo(CLIENT_ID);
        assertThat(key.visibleId()).isEqualTo(CLIENT_ID);
        assertThat(key.owner()).contains(ALICE);
        assertThat(key).isEqualTo(JobKey.submitted(ALICE, CLIENT_ID)).isNotEqualTo(JobKey.submitted(BOB, CLIENT_ID));
    }

    @Test
    void submitted_shouldRefuseAClientIdThatIsNoUuidV4() {
        assertThatThrownBy(() -> JobKey.submitted(ALICE, "not-a-uuid")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void of_shouldTakeAClientIdOnlyOnTheIdDerivedFromItAndItsOwner() {
        String stored = JobIds.stored(ALICE, CLIENT_ID);

        assertThat(JobKey.of(stored, ALICE.value(), CLIENT_ID)).isEqualTo(JobKey.submitted(ALICE, CLIENT_ID));
        assertThatThrownBy(() -> JobKey.of(stored, BOB.value(), CLIENT_ID))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("derived");
        assertThatThrownBy(() -> JobKey.of(stored, null, CLIENT_ID)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JobKey.of(stored, "sha256:ABC", null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(JobKey.of(CLIENT_ID, null, null).visibleId()).isEqualTo(CLIENT_ID);
        assertThat(JobKey.of(CLIENT_ID, null, null).owner()).isEmpty();
    }

    @Test
    void ownedBy_shouldKeepTheStoredId_andDropTheClientId() {
        JobKey line = JobKey.stored(CLIENT_ID, null).ownedBy(BOB);

        assertThat(line.storedId()).isEqualTo(CLIENT_ID);
        assertThat(line.owner()).contains(BOB);
        assertThat(line.clientRequestId()).isNull();
        assertThat(JobKey.submitted(ALICE, CLIENT_ID).ownedBy(BOB).clientRequestId()).isNull();
    }

    @Test
    void requested_shouldHaveTheClientsIdAndNoStoredId_untilItsCallerSubmitsIt() {
        JobKey requested = JobKey.requested(CLIENT_ID.toUpperCase(java.util.Locale.ROOT));

        assertThat(requested.isRequested()).isTrue();
        assertThat(requested.clientRequestId()).isEqualTo(CLIENT_ID);
        assertThat(requested.visibleId()).isEqualTo(CLIENT_ID);
        assertThat(requested.owner()).isEmpty();
        assertThatThrownBy(requested::storedId).isInstanceOf(IllegalStateException.class);
        assertThat(requested.submittedBy(ALICE)).isEqualTo(JobKey.submitted(ALICE, CLIENT_ID));
        assertThat(requested.submittedBy(ALICE).isRequested()).isFalse();
    }

    @Test
    void submittedBy_shouldRefuseAKeyThatIsStoredAlready_soAStoredIdNeverBecomesAClientId() {
        assertThatThrownBy(() -> JobKey.stored(CLIENT_ID, null).submittedBy(ALICE))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> JobKey.submitted(BOB, CLIENT_ID).submittedBy(ALICE))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> JobKey.requested("not-a-uuid")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void jobCopies_shouldCarryTheKeyTheyWereMadeWith_notDeriveItAgain() {
        InferenceJob job = new InferenceJob(CLIENT_ID, Task.GENERATE, "hi", 8, 0.0, 1.0, Tier.of("small"), null,
                null, null, null, null).withKey(JobKey.submitted(ALICE, CLIENT_ID));

        InferenceJob copy = job.withSubmittedAt(Instant.parse("2026-12-03T10:00:00Z"));

        assertThat(copy.key()).isSameAs(job.key());
        assertThat(copy.requestId()).isEqualTo(JobIds.stored(ALICE, CLIENT_ID));
        assertThat(copy.clientRequestId()).isEqualTo(CLIENT_ID);
        assertThat(copy.owner()).isEqualTo(ALICE.value());
    }

    @Test
    void job_shouldKeepItsWireFields_whenItsIdentityIsAKey() {
        InferenceJob job = new InferenceJob(CLIENT_ID, Task.GENERATE, "hi", 8, 0.0, 1.0, Tier.of("small"), null,
                null, null, null, null).withKey(JobKey.submitted(ALICE, CLIENT_ID));

        String json = JobJson.write(job);

        assertThat(json).startsWith("{\"requestId\":\"" + job.requestId() + "\",\"task\":\"generate\"")
                .contains("\"owner\":\"" + ALICE.value() + "\",\"clientRequestId\":\"" + CLIENT_ID + "\"")
                .doesNotContain("key");
        assertThat(JobJson.read(json, InferenceJob.class)).isEqualTo(job);
        assertThat(Optional.of(JobJson.read(json, InferenceJob.class).key())).contains(job.key());
    }
}
