package io.gpupipe.model.seal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.BatchMember;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.QueuedJob;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Whose job a queue message is: a sealed one keeps the owner it names; any other is the queue owner's, under the
 * id derived from the queue owner and its requestId, whatever owner or stored id its body names.
 */
class MessageOriginTest {
    private static final MessageSeal SEALS = MessageSeal.of(DeploymentKey.of("k".repeat(32)));
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final String ALICES_CLIENT_ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final String ALICES_STORED_ID = JobIds.stored(ALICE, ALICES_CLIENT_ID);
    /** The planted message: Alice's owner, a client id she will use, the stored id derived from both. */
    private static final String PLANTED = "{\"requestId\":\"" + ALICES_STORED_ID + "\",\"prompt\":\"planted\","
            + "\"owner\":\"" + ALICE.value() + "\",\"clientRequestId\":\"" + ALICES_CLIENT_ID + "\"}";
    private static final TierCatalogue TIERS = TierCatalogue.bundled();
    private static final Tier SMALL = Tier.of("small");

    @Test
    void of_shouldBeSealed_onlyForTheSealOfTheExactBody_underTheConfiguredKey() {
        assertThat(MessageOrigin.of(Optional.of(SEALS), PLANTED, SEALS.seal(PLANTED))).isEqualTo(MessageOrigin.SEALED);
        assertThat(MessageOrigin.of(Optional.of(SEALS), PLANTED, null)).isEqualTo(MessageOrigin.PRODUCER);
        assertThat(MessageOrigin.of(Optional.of(SEALS), PLANTED + " ", SEALS.seal(PLANTED)))
                .isEqualTo(MessageOrigin.PRODUCER);
        // without a configured key nothing is trusted, not even a well-formed seal
        assertThat(MessageOrigin.of(Optional.empty(), PLANTED, SEALS.seal(PLANTED))).isEqualTo(MessageOrigin.PRODUCER);
    }

    @Test
    void read_shouldKeepTheNamedOwnerAndIds_ofASealedMessage() {
        InferenceJob job = valid(PLANTED, MessageOrigin.SEALED);

        assertThat(job.owner()).isEqualTo(ALICE.value());
        assertThat(job.requestId()).isEqualTo(ALICES_STORED_ID);
        assertThat(job.clientRequestId()).isEqualTo(ALICES_CLIENT_ID);
    }

    @Test
    void read_shouldGiveAProducersMessageToTheQueueOwner_underItsNamespacedId_whateverItsBodyNames() {
        InferenceJob job = valid(PLANTED, MessageOrigin.PRODUCER);

        assertThat(job.owner()).isEqualTo(Owner.QUEUE.value());
        assertThat(job.clientRequestId()).isEqualTo(ALICES_STORED_ID);
        assertThat(job.requestId()).isEqualTo(JobIds.stored(Owner.QUEUE, ALICES_STORED_ID))
                .isNotEqualTo(ALICES_STORED_ID);
    }

    @Test
    void read_shouldNamespaceAProducersMessage_thatNamesAnotherOwnersStoredIdWithoutAnOwner() {
        String bare = "{\"requestId\":\"" + ALICES_STORED_ID + "\",\"prompt\":\"other body\"}";

        InferenceJob job = valid(bare, MessageOrigin.PRODUCER);

        assertThat(job.requestId()).isEqualTo(JobIds.stored(Owner.QUEUE, ALICES_STORED_ID));
        assertThat(job.owner()).isEqualTo(Owner.QUEUE.value());
    }

    @Test
    void read_shouldNameTheNamespacedId_inAProducersMalformedMessage_soItsFailedResultLandsThere() {
        String malformed = "{\"requestId\":\"" + ALICES_STORED_ID + "\",\"prompt\":\"hi\",\"maxTokens\":0,"
                + "\"owner\":\"" + ALICE.value() + "\"}";

        QueuedJob.Malformed read = (QueuedJob.Malformed) QueuedJob.read(malformed, key -> Optional.empty(), TIERS,
                SMALL, MessageOrigin.PRODUCER);

        assertThat(read.errors()).extracting(FieldError::field).containsExactly("maxTokens");
        assertThat(read.requestId()).contains(JobIds.stored(Owner.QUEUE, ALICES_STORED_ID));
    }

    @Test
    void read_shouldRefuseABatchLineClaim_fromAProducer() {
        BatchMember member = new BatchMember("batch_" + ALICES_CLIENT_ID, 0, 1, 2);
        String line = "{\"requestId\":\"" + member.requestId() + "\",\"prompt\":\"hi\",\"batch\":"
                + JobJson.write(member) + "}";

        assertThat(valid(line, MessageOrigin.SEALED).batch()).isEqualTo(member);
        QueuedJob read = QueuedJob.read(line, key -> Optional.empty(), TIERS, SMALL, MessageOrigin.PRODUCER);
        assertThat(read).isInstanceOf(QueuedJob.Malformed.class);
        assertThat(((QueuedJob.Malformed) read).errors()).extracting(FieldError::field).containsExactly("batch");
    }

    private static InferenceJob valid(String body, MessageOrigin origin) {
        QueuedJob read = QueuedJob.read(body, key -> Optional.empty(), TIERS, SMALL, origin);
        assertThat(read).isInstanceOf(QueuedJob.Valid.class);
        return ((QueuedJob.Valid) read).job();
    }
}
