package io.gpupipe.model.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GpuShareTest {

    @ParameterizedTest
    @CsvSource({"0.125, 0.125, 1, true", "0.25, 0.25, 1, true", "0.5, 0.5, 1, true", "1, 1.0, 1, false",
            "4, 4.0, 4, false", "8, 8.0, 8, false", "16, 16.0, 16, false"})
    void of_shouldAccept_whenExactFractionOrWholeCount(String value, double gpus, int devices, boolean fractional) {
        // when
        GpuShare share = GpuShare.of(value);

        // then
        assertThat(share.ecsValue()).isEqualTo(value);
        assertThat(share.gpus()).isEqualTo(gpus);
        assertThat(share.devices()).isEqualTo(devices);
        assertThat(share.isFractional()).isEqualTo(fractional);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.250", "0.3", ".5", "0.75", "1.0", "0", "00", "01", "-1", "17", "100", " 1", "1 ", "",
            "one", "1e1"})
    void of_shouldRejectNamingTheAllowedValues_whenNotAnExactEcsValue(String value) {
        // when, then
        assertThatThrownBy(() -> GpuShare.of(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"" + value + "\"")
                .hasMessageContaining("[0.125, 0.25, 0.5]")
                .hasMessageContaining("1-16");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 8})
    void wholeGpus_shouldEqualParsedString_whenCountValid(int count) {
        // when, then
        assertThat(GpuShare.wholeGpus(count)).isEqualTo(GpuShare.of(String.valueOf(count)));
    }
}
