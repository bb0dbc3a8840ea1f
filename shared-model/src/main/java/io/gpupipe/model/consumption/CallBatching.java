package io.gpupipe.model.consumption;

import java.time.Duration;

/**
 * How the worker spends few SQS calls per job (SQS charges per call; a receive or batch call carries at most 10
 * messages) without leaving model-server slots idle for long:
 * <ul>
 * <li><b>Fill.</b> Free window slots come back in bursts: the jobs one receive started finish together on a
 * batching model server. Holding fewer slots than {@link #target}, the poller waits for more while they keep
 * coming, at most {@code fillGap} after the last one and {@code maxFill} in all, then receives for all of them.
 * While the jobs still in flight cover every server slot (the worker's {@code WindowSizing.serverStillFull}: the window's
 * headroom is waiting inside the server), a slot the poller holds idles nothing, so it waits for more regardless of
 * gaps, up to {@code maxFullFill}.</li>
 * <li><b>Trickle.</b> A receive that brought some messages but fewer than it asked for took everything the queue
 * had; new messages then arrive one by one, and polling again at once would bring one per call. Pausing
 * {@code trickleWait} lets several gather. A receive that brought none needs no pause: its long poll waited.</li>
 * <li><b>Deletes.</b> A finished message is deleted in a batch up to {@link #deleteLinger} after it was handed over,
 * long before its visibility can lapse.</li>
 * </ul>
 */
public record CallBatching(Duration fillGap, Duration maxFill, Duration maxFullFill, Duration trickleWait,
                           Duration maxDeleteLinger) {
    /** ReceiveMessage, DeleteMessageBatch and ChangeMessageVisibilityBatch take at most 10 messages. */
    public static final int MAX_MESSAGES = 10;

    public CallBatching {
        for (Duration d : new Duration[] {fillGap, maxFill, maxFullFill, trickleWait, maxDeleteLinger}) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("batching waits must be zero or positive, got " + d);
            }
        }
    }

    /**
     * Slots freed by one decode step arrive within a few ms of each other (result writes); 15 ms spans two 8 ms
     * steps. While the server is still full, free slots are held up to 500 ms (a 50-token job takes ~0.5 s at 8 ms
     * a step, so about one job per slot finishes meanwhile). Trickling messages are waited for 50 ms, a delay no GPU
     * job notices.
     */
    public static CallBatching defaults() {
        return new CallBatching(Duration.ofMillis(15), Duration.ofMillis(100), Duration.ofMillis(500),
                Duration.ofMillis(50), Duration.ofSeconds(1));
    }

    /** How many messages one receive aims for with a window of {@code windowLimit}. */
    public int target(int windowLimit) {
        return Math.max(1, Math.min(MAX_MESSAGES, windowLimit));
    }

    /**
     * How much longer to wait for another free slot, holding {@code held} of {@code target}, {@code sinceFirst}
     * after the first came and {@code sinceLast} after the last, while the jobs in flight do or do not still fill
     * every server slot; zero means receive now.
     */
    public Duration fillWait(int held, int target, boolean serverStillFull, Duration sinceFirst, Duration sinceLast) {
        if (held <= 0 || held >= target) {
            return Duration.ZERO;
        }
        if (serverStillFull) {
            Duration left = maxFullFill.minus(sinceFirst);
            return left.isNegative() ? Duration.ZERO : left;
        }
        Duration byGap = fillGap.minus(sinceLast);
        Duration byTotal = maxFill.minus(sinceFirst);
        Duration left = byGap.compareTo(byTotal) < 0 ? byGap : byTotal;
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The pause before the next receive, after one that asked for {@code asked} messages and got {@code got}. */
    public Duration pauseAfter(int asked, int got) {
        return got > 0 && got < asked ? trickleWait : Duration.ZERO;
    }

    /**
     * How long a delete may wait for others to share its call: {@code maxDeleteLinger}, but at most a tenth of the
     * queue's visibility timeout. The worker's heartbeat ({@code HeartbeatSchedule}) leaves a running message at least one
     * tick (a quarter of the visibility, or 30 s) before it lapses, so it is still invisible when its delete
     * arrives.
     */
    public Duration deleteLinger(Duration visibilityTimeout) {
        Duration tenth = visibilityTimeout.dividedBy(10);
        return tenth.compareTo(maxDeleteLinger) < 0 ? tenth : maxDeleteLinger;
    }
}
