package io.gpupipe.repair.architecture;

import io.gpupipe.repair.RepairLoggerHandler;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(RepairLoggerHandler.class);
    }
}
