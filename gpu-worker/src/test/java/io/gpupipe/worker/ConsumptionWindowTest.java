package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConsumptionWindowTest {

    @Test
    void acquireUpTo_shouldGrantOnlyFreeSlots_andNeverMoreThanAsked() throws Exception {
        // given
        var window = new ConsumptionWindow(16);
        // when
        int first = window.acquireUpTo(10, Duration.ZERO);
        int second = window.acquireUpTo(10, Duration.ZERO);
        int third = window.acquireUpTo(10, Duration.ZERO);
        // then
        assertThat(first).isEqualTo(10);
        assertThat(second).isEqualTo(6);
        assertThat(third).isZero();
        assertThat(window.inUse()).isEqualTo(16);
    }

    @Test
    void acquireUpTo_shouldWaitForARelease_whenFull() throws Exception {
        // given a full window
        var window = new ConsumptionWindow(2);
        window.acquireUpTo(2, Duration.ZERO);
        // when another thread releases one slot
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return window.acquireUpTo(10, Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await("the acquire to stay blocked").during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(waiting).isNotDone());
        window.release(1);
        // then
        assertThat(waiting.get(2, TimeUnit.SECONDS)).isEqualTo(1);
    }

    @Test
    void resize_shouldStopGrantingUntilBelowTheNewLimit_whenShrunk() throws Exception {
        // given 8 of 16 slots in use
        var window = new ConsumptionWindow(16);
        window.acquireUpTo(8, Duration.ZERO);
        // when
        window.resize(6);
        int whileAbove = window.acquireUpTo(10, Duration.ZERO);
        window.release(4);
        int afterRelease = window.acquireUpTo(10, Duration.ZERO);
        // then
        assertThat(whileAbove).isZero();
        assertThat(afterRelease).isEqualTo(2);
        assertThat(window.limit()).isEqualTo(6);
    }
}
