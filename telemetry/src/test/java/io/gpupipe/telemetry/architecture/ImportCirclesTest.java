package io.gpupipe.telemetry.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.gpupipe.telemetry.TracingBeans;
import io.gpupipe.testsupport.ImportCircles;
import org.junit.jupiter.api.Test;

/** This module's main code has no import circle between packages or between top-level classes ({@link ImportCircles}). */
class ImportCirclesTest {
    private static final JavaClasses MAIN = ImportCircles.mainClassesBeside(TracingBeans.class);

    @Test
    void packages_shouldFormNoImportCircle() {
        ImportCircles.BETWEEN_PACKAGES.check(MAIN);
    }

    @Test
    void topLevelClasses_shouldFormNoImportCircle() {
        ImportCircles.BETWEEN_CLASSES.check(MAIN);
    }
}
