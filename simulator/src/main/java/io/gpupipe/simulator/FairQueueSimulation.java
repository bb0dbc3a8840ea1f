package io.gpupipe.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.TreeMap;

/**
 * One tier queue and its consumers' in-flight slots (the workers' windows), event by event: messages arrive per
 * tenant, a free slot takes the next message the delivery order picks, holds it for a service time (uniform within
 * ±50 % of the mean, so slots do not free in lockstep) and deletes it. {@link Delivery#FIFO} is a standard queue
 * without message groups (roughly oldest first); {@link Delivery#FAIR} is a fair queue: quiet tenants' messages first
 * whenever one waits, then the noisy tenant with the fewest in flight ({@link NoisyNeighbourRule}).
 */
final class FairQueueSimulation {
    /** How far back a tenant's share of processing time is measured (AWS says "recent" and gives no figure). */
    static final double PROCESSING_WINDOW_SECONDS = 60;

    enum Delivery {
        FIFO("standard queue, no message groups"),
        FAIR("fair queue, MessageGroupId = owner");

        private final String label;

        Delivery(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }

    /** One message: its tenant, when it was sent and (once a slot took it) when it was received. */
    record Message(String tenant, double sentAt, double receivedAt) {
        double waitSeconds() {
            return receivedAt - sentAt;
        }
    }

    /** One job being processed, for the processing-time shares. */
    private record Busy(String tenant, double start, double end) {
    }

    private final int slots;
    private final double meanServiceSeconds;
    private final NoisyNeighbourRule rule;
    private final long seed;

    FairQueueSimulation(int slots, double meanServiceSeconds, NoisyNeighbourRule rule, long seed) {
        this.slots = slots;
        this.meanServiceSeconds = meanServiceSeconds;
        this.rule = rule;
        this.seed = seed;
    }

    /** Runs {@code arrivals} (tenant and send time, any order) to the end; every message as received. */
    List<Message> run(List<Message> arrivals, Delivery delivery) {
        Random random = new Random(seed);
        List<Message> pending = new ArrayList<>(arrivals);
        pending.sort(Comparator.comparingDouble(Message::sentAt));
        Map<String, Deque<Message>> queued = new TreeMap<>();
        Map<String, Integer> inFlight = new HashMap<>();
        PriorityQueue<Busy> running = new PriorityQueue<>(Comparator.comparingDouble(Busy::end));
        Deque<Busy> recent = new ArrayDeque<>();
        List<Message> received = new ArrayList<>(arrivals.size());
        int next = 0;
        double now = 0;
        while (next < pending.size() || !running.isEmpty() || queued.values().stream().anyMatch(q -> !q.isEmpty())) {
            double nextArrival = next < pending.size() ? pending.get(next).sentAt() : Double.POSITIVE_INFINITY;
            double nextCompletion = running.isEmpty() ? Double.POSITIVE_INFINITY : running.peek().end();
            now = Math.min(nextArrival, nextCompletion);
            while (!running.isEmpty() && running.peek().end() <= now) {
                inFlight.merge(running.poll().tenant(), -1, Integer::sum);
            }
            while (next < pending.size() && pending.get(next).sentAt() <= now) {
                Message message = pending.get(next++);
                queued.computeIfAbsent(message.tenant(), t -> new ArrayDeque<>()).add(message);
            }
            Map<String, Double> shares = delivery == Delivery.FAIR ? processingShares(recent, now) : Map.of();
            while (running.size() < slots) {
                String tenant = switch (delivery) {
                    case FIFO -> oldest(queued);
                    case FAIR -> fairest(queued, inFlight, running.size(), shares);
                };
                if (tenant == null) {
                    break;
                }
                Message message = queued.get(tenant).poll();
                double service = meanServiceSeconds * (0.5 + random.nextDouble());
                Busy busy = new Busy(tenant, now, now + service);
                running.add(busy);
                recent.add(busy);
                inFlight.merge(tenant, 1, Integer::sum);
                received.add(new Message(tenant, message.sentAt(), now));
            }
        }
        return received;
    }

    /** The tenant whose head message was sent first: a queue without groups hands out roughly oldest first. */
    private static String oldest(Map<String, Deque<Message>> queued) {
        String oldest = null;
        double sentAt = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, Deque<Message>> entry : queued.entrySet()) {
            Message head = entry.getValue().peek();
            if (head != null && head.sentAt() < sentAt) {
                sentAt = head.sentAt();
                oldest = entry.getKey();
            }
        }
        return oldest;
    }

    /** A quiet tenant's oldest message first; else the noisy tenant with the fewest in flight. */
    private String fairest(Map<String, Deque<Message>> queued, Map<String, Integer> inFlight, int totalInFlight,
                           Map<String, Double> shares) {
        String quiet = null;
        double quietSentAt = Double.POSITIVE_INFINITY;
        String noisy = null;
        int noisyInFlight = Integer.MAX_VALUE;
        for (Map.Entry<String, Deque<Message>> entry : queued.entrySet()) {
            Message head = entry.getValue().peek();
            if (head == null) {
                continue;
            }
            String tenant = entry.getKey();
            int tenantInFlight = inFlight.getOrDefault(tenant, 0);
            if (rule.isNoisy(tenantInFlight, totalInFlight, shares.getOrDefault(tenant, 0.0))) {
                if (tenantInFlight < noisyInFlight) {
                    noisyInFlight = tenantInFlight;
                    noisy = tenant;
                }
            } else if (head.sentAt() < quietSentAt) {
                quietSentAt = head.sentAt();
                quiet = tenant;
            }
        }
        return quiet != null ? quiet : noisy;
    }

    /** Each tenant's share of the processing time spent in the last {@link #PROCESSING_WINDOW_SECONDS}. */
    private static Map<String, Double> processingShares(Deque<Busy> recent, double now) {
        double from = now - PROCESSING_WINDOW_SECONDS;
        while (!recent.isEmpty() && recent.peek().end() < from) {
            // in start order: only an ended head leaves; one that ended behind a longer head overlaps nothing
            recent.poll();
        }
        Map<String, Double> seconds = new HashMap<>();
        double total = 0;
        for (Busy busy : recent) {
            double overlap = Math.min(busy.end(), now) - Math.max(busy.start(), from);
            if (overlap > 0) {
                seconds.merge(busy.tenant(), overlap, Double::sum);
                total += overlap;
            }
        }
        Map<String, Double> shares = new HashMap<>();
        for (Map.Entry<String, Double> entry : seconds.entrySet()) {
            shares.put(entry.getKey(), entry.getValue() / total);
        }
        return shares;
    }
}
