package io.gpupipe.worker;

import io.gpupipe.adapters.QueueMessage;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.worker.consumption.HeartbeatSchedule;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.jboss.logging.Logger;

/**
 * Keeps in-flight messages invisible while their jobs run: at each tick, every message that could lapse before
 * the tick after next is extended with one ChangeMessageVisibilityBatch call per 10 messages.
 */
final class Heartbeat implements Runnable {
    private static final Logger LOG = Logger.getLogger(Heartbeat.class);

    private final TierQueue queue;
    private final Collection<InFlightMessage> inFlight;
    private final HeartbeatSchedule schedule;
    private final ReentrantLock visibilityLock;
    private final Clock clock;

    Heartbeat(TierQueue queue, Collection<InFlightMessage> inFlight, HeartbeatSchedule schedule,
              ReentrantLock visibilityLock, Clock clock) {
        this.queue = queue;
        this.inFlight = inFlight;
        this.schedule = schedule;
        this.visibilityLock = visibilityLock;
        this.clock = clock;
    }

    @Override
    public void run() {
        visibilityLock.lock();
        try {
            tick(clock.instant());
        } catch (RuntimeException e) {
            LOG.warnf("heartbeat could not extend visibility: %s", e.getMessage());
        } finally {
            visibilityLock.unlock();
        }
    }

    private void tick(Instant now) {
        List<InFlightMessage> due = new ArrayList<>();
        for (InFlightMessage message : inFlight) {
            if (!message.isSettled() && schedule.isDue(message.visibleUntil(), now)) {
                due.add(message);
            }
        }
        if (due.isEmpty()) {
            return;
        }
        List<QueueMessage> messages = due.stream().map(InFlightMessage::message).toList();
        Set<String> failed = new HashSet<>();
        queue.changeVisibility(messages, schedule.extension()).forEach(m -> failed.add(m.receiptHandle()));
        Instant until = schedule.extendedUntil(now);
        for (InFlightMessage message : due) {
            if (!failed.contains(message.message().receiptHandle())) {
                message.extendedTo(until);
            } else if (!message.isSettled()) {
                LOG.warnf("could not extend visibility of message %s", message.message().messageId());
            }
        }
        LOG.debugf("extended visibility of %d message(s) by %d s", due.size() - failed.size(),
                schedule.extensionSeconds());
    }
}
