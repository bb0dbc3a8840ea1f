package io.gpupipe.testsupport;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.testsupport.circles.first.First;
import org.junit.jupiter.api.Test;

/**
 * The rules fail on a circle: pointed at this module's test classes, which hold one on purpose
 * ({@code circles.first.First} and {@code circles.second.Second} call each other), both report it.
 */
class ImportCirclesRuleTest {
    private final ImportCircles testClasses = new ImportCircles(First.class) {
    };

    @Test
    void packages_shouldReportThePackageCircle() {
        assertThatThrownBy(testClasses::packages_shouldFormNoImportCircle).isInstanceOf(AssertionError.class)
                .hasMessageContaining("package io.gpupipe.testsupport.circles.first")
                .hasMessageContaining("package io.gpupipe.testsupport.circles.second");
    }

    @Test
    void topLevelClasses_shouldReportTheClassCircle() {
        assertThatThrownBy(testClasses::topLevelClasses_shouldFormNoImportCircle).isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.gpupipe.testsupport.circles.first.First")
                .hasMessageContaining("io.gpupipe.testsupport.circles.second.Second");
    }
}
