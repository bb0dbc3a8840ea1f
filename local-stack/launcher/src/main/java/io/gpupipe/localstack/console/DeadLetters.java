package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.MessageAttributes;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.seal.MessageOrigin;
import io.gpupipe.model.seal.MessageSeal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The messages on the job DLQ, as its event source (the dead-letter function's trigger) receives them. SQS cannot
 * list a queue without receiving from it, and the trigger receives each message the moment it is visible, so the
 * console watches the trigger instead of competing with it: a message the function settles is deleted and leaves
 * the list; one it keeps (no readable requestId, or S3 failing) stays and comes back after the DLQ's visibility
 * timeout. A message not seen again within {@code forgetAfter} has left the queue some other way (a redrive).
 */
public final class DeadLetters implements SqsEventSource.Observer {
    static final int CAPACITY = 100;
    static final int BODY_EXCERPT = 500;

    /**
     * One message on the DLQ: why it is there ({@code ErrorReason}, set by the worker), where it came from, and whose
     * it is: the {@code owner} its body names when sealed (null: none, or no job JSON), else the queue owner.
     */
    public record Letter(String messageId, Instant sentAt, int receiveCount, String originalQueue, String reason,
                         String body, Instant lastSeenAt, String owner) {
    }

    private final Clock clock;
    private final Duration forgetAfter;
    private final Map<String, Letter> letters = new LinkedHashMap<>();
    private final Optional<MessageSeal> seals;

    public DeadLetters(Clock clock, Duration forgetAfter, Optional<MessageSeal> seals) {
        this.clock = clock;
        this.forgetAfter = forgetAfter;
        this.seals = seals;
    }

    @Override
    public synchronized void settled(List<Message> batch, Set<String> kept) {
        Instant now = clock.instant();
        for (Message message : batch) {
            if (kept.contains(message.messageId())) {
                letters.remove(message.messageId());
                letters.put(message.messageId(), letter(message, now));
            } else {
                letters.remove(message.messageId());
            }
        }
        while (letters.size() > CAPACITY) {
            Iterator<String> oldest = letters.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
    }

    /** The messages still on the DLQ, oldest sent first. */
    public synchronized List<Letter> current() {
        Instant horizon = clock.instant().minus(forgetAfter);
        letters.values().removeIf(l -> l.lastSeenAt().isBefore(horizon));
        List<Letter> list = new ArrayList<>(letters.values());
        list.sort(java.util.Comparator.comparing(Letter::sentAt));
        return list;
    }

    /** Forgets every message (a redrive moved them; those still on the DLQ are listed again when next seen). */
    public synchronized void clear() {
        letters.clear();
    }

    private Letter letter(Message message, Instant now) {
        Map<MessageSystemAttributeName, String> attributes = message.attributes();
        String body = message.body() == null ? "" : message.body();
        return new Letter(message.messageId(), epochMillis(attributes.get(MessageSystemAttributeName.SENT_TIMESTAMP),
                now), number(attributes.get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT)),
                text(message.messageAttributes().get(MessageAttributes.ORIGINAL_QUEUE)),
                text(message.messageAttributes().get(MessageAttributes.ERROR_REASON)),
                body.length() <= BODY_EXCERPT ? body : body.substring(0, BODY_EXCERPT - 1) + "…", now,
                owner(body, text(message.messageAttributes().get(MessageAttributes.SEAL))));
    }

    /**
     * Whose the message is, by the worker's rule ({@link MessageOrigin}): the owner its body names only when the
     * router or the batch function sealed it; any other message is its producer's, the queue owner's.
     */
    private String owner(String body, String seal) {
        if (MessageOrigin.of(seals, body, seal) == MessageOrigin.PRODUCER) {
            return Owner.QUEUE.value();
        }
        try {
            return JobJson.read(body, JsonNode.class).path("owner").asText(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String text(MessageAttributeValue value) {
        return value == null ? null : value.stringValue();
    }

    private static Instant epochMillis(String value, Instant otherwise) {
        try {
            return value == null ? otherwise : Instant.ofEpochMilli(Long.parseLong(value));
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static int number(String value) {
        try {
            return value == null ? 0 : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
