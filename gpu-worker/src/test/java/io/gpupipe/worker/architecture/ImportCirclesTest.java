package io.gpupipe.worker.architecture;

import io.gpupipe.testsupport.ImportCircles;
import io.gpupipe.worker.WorkerConfig;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(WorkerConfig.class);
    }
}
