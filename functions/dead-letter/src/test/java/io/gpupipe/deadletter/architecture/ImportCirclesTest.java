package io.gpupipe.deadletter.architecture;

import io.gpupipe.deadletter.DeadLetterHandler;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(DeadLetterHandler.class);
    }
}
