package io.gpupipe.cdk.architecture;

import io.gpupipe.cdk.GpupipeApp;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(GpupipeApp.class);
    }
}
