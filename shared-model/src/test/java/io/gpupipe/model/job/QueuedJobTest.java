package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.JobIds;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A tier-queue message read once: the job, or what a malformed one validly named for its failed result. */
class QueuedJobTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final TierCatalogue TIERS = TierCatalogue.bundled();
    private static final Tier SMALL = Tier.of("small");

    @Test
    void read_shouldGiveTheJob_withItsKeyFromTheMessage() {
        String stored = JobIds.stored(ALICE, ID);
        String body = "{\"requestId\":\"" + stored + "\",\"prompt\":\"hi\",\"owner\":\"" + ALICE.value()
                + "\",\"clientRequestId\":\"" + ID.toUpperCase() + "\",\"submittedAt\":\"2026-12-03T10:00:00Z\"}";

        QueuedJob read = QueuedJob.read(body, TIERS, SMALL);

        assertThat(read).isInstanceOf(QueuedJob.Valid.class);
        InferenceJob job = ((QueuedJob.Valid) read).job();
        assertThat(job.requestId()).isEqualTo(stored);
        assertThat(job.clientRequestId()).isEqualTo(ID);
        assertThat(job.visibleRequestId()).isEqualTo(ID);
        assertThat(job.owner()).isEqualTo(ALICE.value());
        assertThat(job.submittedAt()).hasToString("2026-12-03T10:00:00Z");
    }

    @Test
    void read_shouldKeepTheValidTaskAndCallback_whenTheMessageIsMalformed() {
        String body = "{\"requestId\":\"" + ID.toUpperCase() + "\",\"task\":\"speech\",\"prompt\":\"hi\","
                + "\"callbackUrl\":\"https://hooks.example.com/done\",\"maxTokens\":0}";

        QueuedJob read = QueuedJob.read(body, TIERS, SMALL);

        assertThat(read).isInstanceOf(QueuedJob.Malformed.class);
        QueuedJob.Malformed malformed = (QueuedJob.Malformed) read;
        assertThat(malformed.errors()).extracting(FieldError::field).containsExactlyInAnyOrder("task", "maxTokens");
        assertThat(malformed.requestId()).contains(ID);
        // a task the tier does not serve is still the job's task, so its failed result names it
        assertThat(malformed.task()).contains(Task.SPEECH);
        assertThat(malformed.callbackUrl()).contains("https://hooks.example.com/done");
        assertThat(malformed.reasons()).contains("task not_served").contains("maxTokens");
    }

    @Test
    void read_shouldNameNoTaskOrCallback_whenTheyAreThemselvesInvalid() {
        String body = "{\"requestId\":\"" + ID + "\",\"task\":\"dance\",\"prompt\":\"hi\",\"callbackUrl\":\"ftp://x\"}";

        QueuedJob.Malformed malformed = (QueuedJob.Malformed) QueuedJob.read(body, TIERS, SMALL);

        assertThat(malformed.task()).isEmpty();
        assertThat(malformed.callbackUrl()).isEmpty();
        assertThat(malformed.requestId()).contains(ID);
    }

    @Test
    void read_shouldRefuseAClientIdThatDoesNotDeriveTheStoredId() {
        String body = "{\"requestId\":\"" + ID + "\",\"prompt\":\"hi\",\"owner\":\"" + ALICE.value()
                + "\",\"clientRequestId\":\"" + ID + "\"}";

        QueuedJob.Malformed malformed = (QueuedJob.Malformed) QueuedJob.read(body, TIERS, SMALL);

        assertThat(malformed.errors()).extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("clientRequestId", ErrorCodes.INVALID_VALUE));
    }

    @Test
    void read_shouldReadTheClaimCheckPayloadInsteadOfThePointer_askingForItOnce() {
        InferenceJob job = new InferenceJob(ID, Task.GENERATE, "from the payload", 8, 0.0, 1.0, SMALL, null, null,
                null, null, null);
        List<String> asked = new ArrayList<>();

        QueuedJob read = QueuedJob.read(JobMessage.pointer(ID), key -> {
            asked.add(key);
            return Optional.of(JobMessage.payload(job));
        }, TIERS, SMALL);

        assertThat(asked).containsExactly(JobLayout.payloadKey(ID));
        assertThat(read).isEqualTo(new QueuedJob.Valid(job));
    }

    @Test
    void read_shouldJudgeThePointerItself_whenThePayloadIsGone() {
        QueuedJob read = QueuedJob.read(JobMessage.pointer(ID), key -> Optional.empty(), TIERS, SMALL);

        assertThat(read).isInstanceOf(QueuedJob.Malformed.class);
        assertThat(((QueuedJob.Malformed) read).errors()).extracting(FieldError::field).containsExactly("prompt");
        assertThat(((QueuedJob.Malformed) read).requestId()).contains(ID);
    }

    @Test
    void read_shouldReportABodyError_whenTheMessageIsNoJsonObject() {
        for (String body : List.of("", "not json", "[1]", "null")) {
            QueuedJob.Malformed malformed = (QueuedJob.Malformed) QueuedJob.read(body, TIERS, SMALL);

            assertThat(malformed.errors()).extracting(FieldError::field).containsExactly("body");
            assertThat(malformed.requestId()).isEmpty();
        }
    }
}
