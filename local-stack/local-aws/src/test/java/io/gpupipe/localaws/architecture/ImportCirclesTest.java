package io.gpupipe.localaws.architecture;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(LocalAws.class);
    }
}
