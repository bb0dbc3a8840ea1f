package io.gpupipe.router.architecture;

import io.gpupipe.router.RouterConfig;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(RouterConfig.class);
    }
}
