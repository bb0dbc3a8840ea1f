package io.gpupipe.adapters.architecture;

import io.gpupipe.adapters.TierQueue;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(TierQueue.class);
    }
}
