package io.gpupipe.notifier.architecture;

import io.gpupipe.notifier.ResultNotifierHandler;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(ResultNotifierHandler.class);
    }
}
