package io.gpupipe.simulator.architecture;

import io.gpupipe.simulator.Simulator;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(Simulator.class);
    }
}
