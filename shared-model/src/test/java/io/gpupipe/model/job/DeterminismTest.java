package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Task;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeterminismTest {
    @ParameterizedTest
    @CsvSource({"0.7, temperature 0.7 and no seed", "2.0, temperature 2.0 and no seed"})
    void whyNot_shouldSayWhy_whenATextJobSamplesWithoutASeed(double temperature, String why) {
        assertThat(Determinism.whyNot(Task.GENERATE, temperature, null)).contains(why);
        assertThat(Determinism.whyNot(Task.GENERATE, temperature, 3)).isEmpty();
        assertThat(Determinism.whyNot(Task.SPEECH, temperature, null)).isEmpty();
        assertThat(Determinism.whyNot(Task.EMBED, temperature, null)).isEmpty();
    }
}
