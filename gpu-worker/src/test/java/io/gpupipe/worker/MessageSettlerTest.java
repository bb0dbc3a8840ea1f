package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.QueueAttributes;
import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.retry.RetryPolicy;
import io.gpupipe.model.seal.MessageOrigin;
import io.gpupipe.worker.support.WorkerConfigs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each delivery is settled once, by its job or by the drain, whichever comes first. The messages here are on their
 * first of five receives, so no last-receive result is written (ReleasePathsTest covers that over the real queue).
 */
class MessageSettlerTest {
    private static final QueueAttributes QUEUE = new QueueAttributes(Duration.ofSeconds(300), Optional.of(5),
            Optional.of("http://localhost/000000000000/gpupipe-dlq"));
    private static final Instant NOW = Instant.parse("2026-12-04T01:00:00Z");

    private final RecordingQueue queue = new RecordingQueue();
    private final WorkerSettings settings = WorkerSettings.resolve(WorkerConfigs.of(Map.of()), QUEUE, "arn:task");
    // store and backend are only used on a last receive, which these messages never reach
    private final MessageSettler settler = new MessageSettler(queue, new LastReceiveFailures(settings, null, null,
            null, message -> MessageOrigin.SEALED), new DeleteBatcher(queue, "test-deletes", Duration.ofMillis(10), RetryPolicy.immediate(1)));

    @AfterEach
    void close() {
        settler.close();
    }

    @Test
    void settle_shouldReleaseWithTheDelay_onlyOnce() {
        // given
        InFlightMessage message = inFlight("m-1");

        // when
        settler.settle(message, Disposition.release(Duration.ofSeconds(7), ErrorCodes.WORKER_ERROR, "busy"));
        settler.settle(message, Disposition.release(Duration.ofSeconds(9), ErrorCodes.WORKER_ERROR, "again"));

        // then
        assertThat(queue.visibilityChanges).containsExactly("m-1:PT7S");
    }

    @Test
    void settle_shouldDoNothing_whenTheDrainReleasedTheMessageFirst() {
        // given
        InFlightMessage message = inFlight("m-1");
        assertThat(settler.abandonAndRelease(List.of(message))).isEqualTo(1);

        // when
        settler.settle(message, Disposition.delete());
        settler.close();

        // then
        assertThat(queue.visibilityChanges).containsExactly("m-1:PT0S");
        assertThat(queue.deleted).isEmpty();
        assertThat(settler.released()).isEqualTo(1);
    }

    @Test
    void abandonAndRelease_shouldSkipSettledMessages_andCountOnlyWhatItReleased() {
        // given
        InFlightMessage done = inFlight("m-1");
        InFlightMessage running = inFlight("m-2");
        settler.settle(done, Disposition.delete());

        // when
        int released = settler.abandonAndRelease(List.of(done, running));
        settler.close();

        // then
        assertThat(released).isEqualTo(1);
        assertThat(settler.released()).isEqualTo(1);
        assertThat(queue.visibilityChanges).containsExactly("m-2:PT0S");
        assertThat(queue.deleted).containsExactly("m-1");
    }

    private static InFlightMessage inFlight(String id) {
        return new InFlightMessage(new QueueMessage(id, "receipt-" + id, "{}", 1, NOW, null, null), NOW,
                NOW.plusSeconds(300));
    }

    /** A queue that records the settling calls (the consumer's view of SQS) and answers that each one succeeded. */
    private static final class RecordingQueue implements TierQueue {
        private final List<String> visibilityChanges = new CopyOnWriteArrayList<>();
        private final List<String> deleted = new CopyOnWriteArrayList<>();

        @Override
        public String queueUrl() {
            return "http://localhost/000000000000/gpupipe-small";
        }

        @Override
        public QueueAttributes attributes() {
            return QUEUE;
        }

        @Override
        public List<QueueMessage> receive(int max, Duration wait) {
            throw new UnsupportedOperationException("the settler never receives");
        }

        @Override
        public void delete(QueueMessage message) {
            deleted.add(message.messageId());
        }

        @Override
        public List<QueueMessage> delete(List<QueueMessage> messages) {
            messages.forEach(m -> deleted.add(m.messageId()));
            return List.of();
        }

        @Override
        public void changeVisibility(QueueMessage message, Duration timeout) {
            visibilityChanges.add(message.messageId() + ":" + timeout);
        }

        @Override
        public List<QueueMessage> changeVisibility(List<QueueMessage> messages, Duration timeout) {
            messages.forEach(m -> visibilityChanges.add(m.messageId() + ":" + timeout));
            return List.of();
        }

        @Override
        public void sendToDeadLetterQueue(QueueMessage message, String reason) {
            throw new UnsupportedOperationException("the settler never dead-letters");
        }
    }
}
