package io.gpupipe.testsupport.architecture;

import io.gpupipe.testsupport.CallCounter;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(CallCounter.class);
    }
}
