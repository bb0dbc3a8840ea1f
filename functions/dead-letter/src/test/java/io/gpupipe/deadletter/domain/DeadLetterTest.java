package io.gpupipe.deadletter.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DeadLetterTest {
    static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    static final String NOT_JSON_SHA256 = "7ccfa1fbf3940e6f0c0375d87c0f9235a50514e14cb427bdfaf5077987b26ccf";
    private static final Owner ALICE = OwnerIds.UNKEYED.of(new CallerIdentity.Jwt("https://idp.example.com", "alice"));
    private static final String CLIENT_ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    private static final Instant OWNED_AT = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void read_shouldEchoTaskAndCallback_whenBodyIsAValidJob() {
        // when
        DeadLetter letter = DeadLetter.read("{\"requestId\":\"" + ID.toUpperCase() + "\",\"task\":\"speech\","
                + "\"prompt\":\"hi\",\"callbackUrl\":\"https://hooks.example.com/done\"}");

        // then: the id in its canonical lower-case form
        assertThat(letter).isEqualTo(new DeadLetter.Readable(ID, Task.SPEECH, "https://hooks.example.com/done", null, null));
    }

    @Test
    void read_shouldKeepTheIdButDropRejectedFields_whenJobIsInvalid() {
        // when: a bad callback URL and an unknown task
        DeadLetter letter = DeadLetter.read("{\"requestId\":\"" + ID + "\",\"task\":\"paint\",\"prompt\":\"hi\","
                + "\"callbackUrl\":\"ftp://x\"}");

        // then
        assertThat(letter).isEqualTo(new DeadLetter.Readable(ID, null, null, null, null));
    }

    @Test
    void read_shouldReadTheId_whenBodyIsAClaimCheckPointer() {
        // when: the pointer form carries requestId but no prompt
        DeadLetter letter = DeadLetter.read("{\"requestId\":\"" + ID + "\",\"payloadKey\":\"payloads/" + ID
                + ".json\"}");

        // then
        assertThat(letter).isEqualTo(new DeadLetter.Readable(ID, null, null, null, null));
    }

    @Test
    void read_shouldHashTheBody_whenNoRequestIdCanBeRead() {
        // then: `printf 'not json' | sha256sum`
        assertThat(DeadLetter.read("not json")).isEqualTo(new DeadLetter.Unreadable(NOT_JSON_SHA256,
                "body is not JSON"));
        assertThat(DeadLetter.read("[1]")).isInstanceOf(DeadLetter.Unreadable.class);
        assertThat(DeadLetter.read("{\"requestId\":\"job-1\"}"))
                .isEqualTo(new DeadLetter.Unreadable(DeadLetter.sha256("{\"requestId\":\"job-1\"}"),
                        "body has no valid requestId"));
        assertThat(DeadLetter.read(null)).isInstanceOf(DeadLetter.Unreadable.class);
    }

    @Test
    void sha256_shouldMatchTheStandardDigest_whenGivenKnownInput() {
        // then: FIPS 180-2 test vector "abc"
        assertThat(DeadLetter.sha256("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void failedResult_shouldBeFailedDeadLetteredWithTheReceiveCount_whenBuilt() {
        // given
        Instant now = Instant.parse("2026-12-01T03:00:00Z");
        var letter = new DeadLetter.Readable(ID, Task.GENERATE, "https://hooks.example.com/done", null, null);

        // when
        JobResult result = letter.failedResult(Tier.of("large"), 4, "model_error: boom", now);

        // then
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.error().code()).isEqualTo(ErrorCodes.DEAD_LETTERED);
        assertThat(result.error().message()).contains("4 receive(s)").contains("model_error: boom");
        assertThat(result.attempts()).isEqualTo(4);
        assertThat(result.tier()).isEqualTo(Tier.of("large"));
        assertThat(result.callbackUrl()).isEqualTo("https://hooks.example.com/done");
        assertThat(result.timestamp()).isEqualTo(now);
    }

    @Test
    void deadLetter_shouldKeepOwnerAndClientId_ofAClaimCheckPointer() {
        InferenceJob job = ((JobRequestParser.Outcome.Valid) new JobRequestParser().parse(
                "{\"requestId\":\"" + CLIENT_ID + "\",\"prompt\":\"hi\"}", JobRequestParser.Source.API)).job()
                .withSubmittedAt(OWNED_AT).submittedBy(ALICE);

        DeadLetter letter = DeadLetter.read(JobMessage.pointer(job));
        JobResult failed = ((DeadLetter.Readable) letter).failedResult(Tier.of("small"), 3, null, OWNED_AT);

        assertThat(failed.requestId()).isEqualTo(job.requestId());
        assertThat(failed.owner()).isEqualTo(ALICE.value());
        assertThat(failed.clientRequestId()).isEqualTo(CLIENT_ID);
        assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    }
}
