package io.gpupipe.batch.architecture;

import io.gpupipe.batch.BatchHandler;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(BatchHandler.class);
    }
}
