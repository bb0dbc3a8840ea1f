package io.gpupipe.scaling.architecture;

import io.gpupipe.scaling.ScalingMetricHandler;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(ScalingMetricHandler.class);
    }
}
