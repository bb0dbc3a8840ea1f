package io.gpupipe.telemetry.architecture;

import io.gpupipe.telemetry.TracingBeans;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(TracingBeans.class);
    }
}
