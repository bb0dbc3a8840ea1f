package io.gpupipe.deadletter;

import io.gpupipe.adapters.JobResults;
import io.gpupipe.deadletter.domain.DeadLetter;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.job.JobState;
import io.gpupipe.model.seal.MessageOrigin;
import io.gpupipe.model.seal.MessageSeal;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Settles one dead-lettered message: a job that has no result gets a create-only {@code failed}/{@code dead_lettered}
 * result (If-None-Match: *, the worker's rule, so a result a worker wrote first always wins); a message with no
 * readable requestId is logged with its body's SHA-256 and kept, never deleted unread.
 */
@ApplicationScoped
public class DeadLetterService {
    private static final Logger LOG = Logger.getLogger(DeadLetterService.class);

    private final JobResults store;
    private final Clock clock;
    private final Optional<MessageSeal> seals;

    DeadLetterService(JobResults store, Clock clock, Optional<MessageSeal> seals) {
        this.store = store;
        this.clock = clock;
        this.seals = seals;
    }

    /**
     * {@code seal} is the message's seal attribute or null (a producer's message: its job is the queue owner's,
     * namespaced, as the worker read it); {@code receiveCount} is ApproximateReceiveCount; {@code reason} the
     * ErrorReason attribute or null.
     */
    public Settlement settle(String messageId, String body, String seal, int receiveCount, String reason) {
        MessageOrigin origin = MessageOrigin.of(seals, body, seal);
        DeadLetter letter = DeadLetter.read(body, origin);
        if (letter instanceof DeadLetter.Unreadable unreadable) {
            LOG.errorf("dead-letter kept: message %s has no readable requestId (%s); body sha256=%s, receives=%d",
                    messageId, unreadable.reason(), unreadable.bodySha256(), receiveCount);
            return Settlement.UNREADABLE;
        }
        DeadLetter.Readable job = (DeadLetter.Readable) letter;
        try {
            // an unreadable marker counts as none: the job still gets its result
            Optional<JobState> marker = store.markerSnapshot(job.requestId()).state();
            if (marker.map(m -> DeadLetter.heldByAnother(job, body, origin, m)).orElse(false)) {
                LOG.warnf("dead-letter: id %s is held by another owner's job or another request; no result written "
                        + "(message %s)", job.requestId(), messageId);
                return Settlement.HELD_BY_ANOTHER;
            }
            if (marker.map(m -> m.status() == JobStatus.CANCELLED).orElse(false)) {
                LOG.infof("dead-letter: job %s was cancelled; no result written (message %s)", job.requestId(),
                        messageId);
                return Settlement.CANCELLED;
            }
            // a batch line's result names its batch (from the marker: a claim-check message carries no job), so
            // the notifier records the line as ended and the batch can finish
            boolean written = store.putResultIfAbsent(job.failedResult(marker.map(JobState::tier).orElse(null),
                    receiveCount, reason, clock.instant()).withBatch(marker.map(JobState::batch).orElse(null)));
            LOG.infof("dead-letter: job %s %s (message %s, receives=%d)", job.requestId(),
                    written ? "failed with dead_lettered" : "already had a result", messageId, receiveCount);
            return written ? Settlement.RESULT_WRITTEN : Settlement.RESULT_EXISTS;
        } catch (RuntimeException e) {
            LOG.warnf("dead-letter: job %s kept for a retry (message %s): %s", job.requestId(), messageId,
                    e.toString());
            return Settlement.RETRY;
        }
    }
}
