package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.router.exception.InjectedFaultException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultInjectionTest {
    @Test
    void afterMarkerWritten_shouldNeverFail_whenOff() {
        FaultInjection off = new FaultInjection(0.0, () -> 0.0);
        assertThatCode(() -> off.afterMarkerWritten("id")).doesNotThrowAnyException();
        assertThatCode(() -> FaultInjection.none().afterMarkerWritten("id")).doesNotThrowAnyException();
    }

    @Test
    void afterMarkerWritten_shouldDieAsTheInvocation_whenTheDrawFallsBelowTheRatio() {
        // given
        FaultInjection faults = new FaultInjection(0.25, () -> 0.2);

        // when, then: an unchecked exception no mapper turns into a 4xx
        assertThatThrownBy(() -> faults.afterMarkerWritten("abc")).isInstanceOf(InjectedFaultException.class)
                .isNotInstanceOf(IllegalArgumentException.class).hasMessageContaining("abc")
                .hasMessageContaining("die-after-marker-ratio");
        assertThatCode(() -> new FaultInjection(0.25, () -> 0.25).afterMarkerWritten("abc"))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.1, 1.1, Double.NaN})
    void constructor_shouldRefuse_whenRatioIsNotAProbability(double ratio) {
        assertThatThrownBy(() -> new FaultInjection(ratio, () -> 0.0)).isInstanceOf(IllegalArgumentException.class);
    }
}
