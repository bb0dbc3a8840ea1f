package io.gpupipe.model.consumption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CallBatchingTest {
    private static final CallBatching BATCHING = new CallBatching(ms(15), ms(100), ms(500), ms(50),
            Duration.ofSeconds(1));

    @ParameterizedTest(name = "window {0} -> receive up to {1}")
    @CsvSource({"1, 1", "4, 4", "10, 10", "16, 10", "64, 10"})
    void target_shouldBeTheWindowUpToTenMessages(int window, int target) {
        assertThat(BATCHING.target(window)).isEqualTo(target);
    }

    @ParameterizedTest(name = "held {0} of {1}, {2} ms after the first, {3} ms after the last -> wait {4} ms")
    @CsvSource({
        "0, 10,   0,  0,  0",   // nothing held: nothing to fill
        "10, 10,  0,  0,  0",   // target reached
        "3, 10,   0,  0, 15",   // a slot just came: wait one gap for the next
        "3, 10,  20,  5, 10",   // slots keep coming: the gap restarts with each
        "3, 10,  20, 15,  0",   // none for a whole gap: the burst is over
        "3, 10,  95,  2,  5",   // the total limit comes first
        "3, 10, 100,  0,  0",   // and ends the fill
        "9, 10,  40, 40,  0"})  // a late slot is not waited for
    void fillWait_shouldWaitWhileFreeSlotsKeepComing(int held, int target, int sinceFirst, int sinceLast,
                                                     int wait) {
        assertThat(BATCHING.fillWait(held, target, false, ms(sinceFirst), ms(sinceLast))).isEqualTo(ms(wait));
    }

    @ParameterizedTest(name = "server full, held {0} of {1}, {2} ms after the first, {3} after the last -> {4} ms")
    @CsvSource({
        "3, 10,   0,   0, 500",  // the headroom keeps the server busy: no hurry
        "3, 10, 200, 150, 300",  // gaps do not end the fill while the server is full
        "3, 10, 500,   0,   0",  // but the fill has its limit
        "10, 10,  0,   0,   0",  // target reached
        "0, 10,   0,   0,   0"}) // nothing held
    void fillWait_shouldHoldFreeSlotsIgnoringGaps_whileTheServerIsStillFull(int held, int target, int sinceFirst,
                                                                            int sinceLast, int wait) {
        assertThat(BATCHING.fillWait(held, target, true, ms(sinceFirst), ms(sinceLast))).isEqualTo(ms(wait));
    }

    @ParameterizedTest(name = "asked {0}, got {1} -> pause {2} ms")
    @CsvSource({"10, 10, 0", "3, 3, 0", "10, 4, 50", "10, 1, 50", "10, 0, 0"})
    void pauseAfter_shouldLetTricklingMessagesGather_whenTheQueueWasEmptied(int asked, int got, int pause) {
        assertThat(BATCHING.pauseAfter(asked, got)).isEqualTo(ms(pause));
    }

    @ParameterizedTest(name = "visibility {0} s -> linger {1} ms")
    @CsvSource({"300, 1000", "10, 1000", "8, 800", "2, 200"})
    void deleteLinger_shouldStayFarBelowTheVisibilityTimeout(int visibilitySeconds, int lingerMs) {
        assertThat(BATCHING.deleteLinger(Duration.ofSeconds(visibilitySeconds))).isEqualTo(ms(lingerMs));
    }

    @Test
    void constructor_shouldReject_whenAWaitIsNegative() {
        assertThatThrownBy(() -> new CallBatching(ms(-1), ms(100), ms(500), ms(50), ms(1000)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }
}
