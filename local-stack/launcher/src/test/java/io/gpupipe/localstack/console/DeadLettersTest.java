package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.seal.MessageSeal;
import io.gpupipe.testsupport.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

class DeadLettersTest {
    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void settled_shouldListWhatTheFunctionKept_andDropWhatItDeleted() {
        // given
        DeadLetters letters = new DeadLetters(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(45),
                Optional.empty());
        Message kept = message("m1", "not json", "invalid_request: body is not JSON");
        Message settled = message("m2", "{\"requestId\":\"x\"}", null);
        // when
        letters.settled(List.of(kept, settled), Set.of("m1"));
        // then
        assertThat(letters.current()).singleElement().satisfies(l -> {
            assertThat(l.messageId()).isEqualTo("m1");
            assertThat(l.reason()).isEqualTo("invalid_request: body is not JSON");
            assertThat(l.originalQueue()).isEqualTo("gpupipe-speech");
            assertThat(l.receiveCount()).isEqualTo(2);
            assertThat(l.sentAt()).isEqualTo(NOW.minusSeconds(30));
        });
        // when the function settles it on a later delivery
        letters.settled(List.of(kept), Set.of());
        // then
        assertThat(letters.current()).isEmpty();
    }

    @Test
    void current_shouldForgetAMessage_notReceivedAgainWithinTheVisibilityTimeout() {
        // given a message kept a minute ago, on a DLQ that hands it out again every 30 s
        MutableClock clock = new MutableClock(NOW);
        DeadLetters letters = new DeadLetters(clock, Duration.ofSeconds(45), Optional.empty());
        letters.settled(List.of(message("m1", "not json", "invalid_request")), Set.of("m1"));
        // when
        clock.advance(Duration.ofSeconds(60));
        // then it left the DLQ some other way (a redrive moved it)
        assertThat(letters.current()).isEmpty();
    }

    @Test
    void letter_shouldBeItsSealedOwners_andAnUnsealedOnesOwnerTheQueue_whateverItsBodyNames() {
        // given: two dead letters whose bodies name caller A's owner id; only the first carries the router's seal
        MessageSeal seal = MessageSeal.of(DeploymentKey.of(DeploymentKey.generateText()));
        String ownerA = "hmac-sha256:" + "a".repeat(64);
        String body = "{\"requestId\":\"x\",\"owner\":\"" + ownerA + "\"}";
        Message sealed = sealed(message("m1", body, "invalid_request"), seal.seal(body));
        Message planted = message("m2", body, "invalid_request");
        DeadLetters letters = new DeadLetters(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(45),
                Optional.of(seal));

        // when
        letters.settled(List.of(sealed, planted), Set.of("m1", "m2"));

        // then: a console scoped to A lists only the sealed one as A's; the planted one is the queue's
        assertThat(letters.current()).extracting(DeadLetters.Letter::messageId, DeadLetters.Letter::owner)
                .containsExactly(tuple("m1", ownerA), tuple("m2", Owner.QUEUE.value()));
    }

    private static Message sealed(Message message, String seal) {
        Map<String, MessageAttributeValue> attributes = new HashMap<>(message.messageAttributes());
        attributes.put(MessageAttributes.SEAL, text(seal));
        return message.toBuilder().messageAttributes(attributes).build();
    }

    private static Message message(String id, String body, String reason) {
        Message.Builder message = Message.builder().messageId(id).body(body).attributes(Map.of(
                MessageSystemAttributeName.SENT_TIMESTAMP, Long.toString(NOW.minusSeconds(30).toEpochMilli()),
                MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT, "2"));
        Map<String, MessageAttributeValue> attributes = new HashMap<>();
        attributes.put(MessageAttributes.ORIGINAL_QUEUE, text("gpupipe-speech"));
        if (reason != null) {
            attributes.put(MessageAttributes.ERROR_REASON, text(reason));
        }
        return message.messageAttributes(attributes).build();
    }

    private static MessageAttributeValue text(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
