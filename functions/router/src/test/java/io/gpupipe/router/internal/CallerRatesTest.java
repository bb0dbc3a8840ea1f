package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The per-caller token buckets of one router instance: plain Java, time moved by hand. */
class CallerRatesTest {
    private static final Instant T0 = Instant.parse("2026-12-04T07:00:00Z");
    private static final int RATE = 5;
    private static final int BURST = 10;

    private final MutableClock clock = new MutableClock(T0);
    private final CallerRates rates = new CallerRates(RATE, BURST, 1_000, clock);

    @Test
    void take_shouldNeverRefuseB_whileAPollsAtTenTimesTheRate() {
        // given: for one minute, A asks 50 times a second and B 2 times a second (below the rate)
        int acceptedA = 0;
        int refusedB = 0;
        for (int tick = 0; tick < 60 * 50; tick++) {
            if (rates.take("caller-a").isEmpty()) {
                acceptedA++;
            }
            if (tick % 25 == 0 && rates.take("caller-b").isPresent()) {
                refusedB++;
            }
            clock.advance(Duration.ofMillis(20));
        }

        // then: B was never refused; A got its burst and then the rate, no more
        assertThat(refusedB).isZero();
        assertThat(acceptedA).isBetween(60 * RATE, 60 * RATE + BURST);
    }

    @Test
    void take_shouldAnswerTheWaitForTheNextToken_whenTheBucketIsEmpty() {
        // given
        for (int i = 0; i < BURST; i++) {
            assertThat(rates.take("caller-a")).isEmpty();
        }

        // when
        Optional<Duration> refused = rates.take("caller-a");

        // then: one token comes back after 1/RATE s
        assertThat(refused).contains(Duration.ofMillis(200));
        clock.advance(Duration.ofMillis(199));
        assertThat(rates.take("caller-a")).isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(rates.take("caller-a")).isEmpty();
    }

    @Test
    void take_shouldForgetTheLeastRecentCaller_beyondTheLimitOfCallers() {
        // given room for two callers, a drained bucket of A, and B and C seen since
        CallerRates small = new CallerRates(RATE, 1, 2, clock);
        assertThat(small.take("caller-a")).isEmpty();
        assertThat(small.take("caller-a")).isPresent();
        small.take("caller-b");
        small.take("caller-c");

        // when, then: A starts again with a full bucket
        assertThat(small.take("caller-a")).isEmpty();
    }
}
