package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.simulator.FairQueueSimulation.Delivery;
import io.gpupipe.simulator.FairQueueSimulation.Message;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FairQueueSimulationTest {
    private static final NoisyNeighbourRule RULE = NoisyNeighbourRule.AWS;

    @Test
    void rule_shouldMarkATenantNoisy_whenItHoldsOverATenthOfInFlightAndAtLeastThirty() {
        // then: share above 10 % and at least 30 in flight
        assertThat(RULE.isNoisy(30, 100, 0)).isTrue();
        assertThat(RULE.isNoisy(29, 100, 0)).as("fewer than 30 in flight").isFalse();
        assertThat(RULE.isNoisy(40, 400, 0)).as("exactly 10 % is not above it").isFalse();
        assertThat(RULE.isNoisy(41, 400, 0)).isTrue();
        assertThat(RULE.isNoisy(0, 0, 0)).isFalse();
    }

    @Test
    void rule_shouldMarkATenantNoisy_whenItTookOverATenthOfRecentProcessingTime() {
        // then: few in flight, but slow: a processing-time share above 10 % is enough
        assertThat(RULE.isNoisy(2, 100, 0.11)).isTrue();
        assertThat(RULE.isNoisy(2, 100, 0.10)).isFalse();
    }

    @Test
    void fairDelivery_shouldServeAQuietTenantAtTheNextFreeSlot_whenANoisyOneHasABacklog() {
        // given: 40 slots of 1 s; A queues 2,000 at once (50 s of work), B sends one at 20 s
        FairQueueSimulation simulation = new FairQueueSimulation(40, 1, RULE, 7);
        List<Message> arrivals = burstAndOne(2_000, 20);

        // when
        double fair = waitOf("B", simulation.run(arrivals, Delivery.FAIR));
        double fifo = waitOf("B", simulation.run(arrivals, Delivery.FIFO));

        // then: fair: at most one service time (1.5 s at most) until a slot frees; FIFO: behind A's remaining ~30 s
        assertThat(fair).isLessThanOrEqualTo(1.5);
        assertThat(fifo).isGreaterThan(20);
    }

    @Test
    void fairDelivery_shouldStillServeTheNoisyTenant_whenNoQuietMessageWaits() {
        // given
        FairQueueSimulation simulation = new FairQueueSimulation(40, 1, RULE, 7);
        List<Message> arrivals = burstAndOne(2_000, 20);

        // when
        List<Message> fair = simulation.run(arrivals, Delivery.FAIR);
        List<Message> fifo = simulation.run(arrivals, Delivery.FIFO);

        // then: every message is received, and the backlog drains in the same time (the slots never idle)
        assertThat(fair).hasSize(arrivals.size());
        assertThat(lastReceived(fair)).isCloseTo(lastReceived(fifo), org.assertj.core.data.Offset.offset(1.5));
    }

    @Test
    void report_shouldKeepTheQuietCallersP99Low_underAFairQueue() {
        // when
        FairQueueReport report = FairQueueReport.run(42);

        // then: FIFO makes B wait behind most of A's backlog; fair queues keep B within a service time or two
        double[] fifo = report.waits(Delivery.FIFO, FairQueueReport.QUIET);
        double[] fair = report.waits(Delivery.FAIR, FairQueueReport.QUIET);
        assertThat(fifo.length).isEqualTo(fair.length).isGreaterThan(50);
        assertThat(RunResult.percentile(fifo, 50)).isGreaterThan(100);
        assertThat(RunResult.percentile(fair, 99)).isLessThan(2 * 1.5 * FairQueueReport.MEAN_SERVICE_SECONDS);
        assertThat(report.markdown()).contains("fair queue, MessageGroupId = owner");
    }

    private static List<Message> burstAndOne(int burst, double quietAt) {
        List<Message> arrivals = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            arrivals.add(new Message("A", 0, Double.NaN));
        }
        arrivals.add(new Message("B", quietAt, Double.NaN));
        return arrivals;
    }

    private static double waitOf(String tenant, List<Message> received) {
        return received.stream().filter(m -> m.tenant().equals(tenant)).findFirst().orElseThrow().waitSeconds();
    }

    private static double lastReceived(List<Message> received) {
        return received.stream().mapToDouble(Message::receivedAt).max().orElseThrow();
    }
}
