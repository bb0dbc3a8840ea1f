package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code --set cacheHitRate=…}: that share of arrivals is answered by the router and never reaches a GPU. */
class CacheHitRateTest {
    private static final long SEED = 42;

    @Test
    void hitRate_shouldTakeItsShareOfJobsOffTheGpus_andAnswerThemAtOnce() {
        // given
        Trace bursts = Traces.bundled(SEED).stream().filter(t -> t.name().equals("bursts")).findFirst().orElseThrow();
        Platform platform = Platform.defaults();
        // when
        RunResult without = new Simulator(platform, SEED).run(bursts, Policy.OURS);
        RunResult with = new Simulator(platform.with("cacheHitRate=0.3"), SEED).run(bursts, Policy.OURS);
        // then: about 30 % of the 520 arrivals are hits, each other job still runs once, and no job is lost
        assertThat(without.cacheHits()).isZero();
        assertThat(without.gpuRuns()).isEqualTo(bursts.jobs().size());
        assertThat(with.cacheHits()).isBetween(130, 182);
        assertThat(with.gpuRuns()).isEqualTo(bursts.jobs().size() - with.cacheHits());
        assertThat(with.jobs()).isEqualTo(without.jobs());
        assertThat(with.lateJobs()).isZero();
        assertThat(with.instanceHours()).isLessThanOrEqualTo(without.instanceHours());
        assertThat(Report.cacheSavings(java.util.List.of(with), java.util.List.of(without), 0.3))
                .contains("hit rate 30 %").contains(without.gpuRuns() + " → " + with.gpuRuns());
    }

    @Test
    void hitRate_shouldBeRefused_whenItIsNotAShare() {
        assertThatThrownBy(() -> Platform.defaults().with("cacheHitRate=1.5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 to 1");
    }
}
