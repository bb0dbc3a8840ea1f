package io.gpupipe.localstack.architecture;

import io.gpupipe.localstack.LocalStack;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(LocalStack.class);
    }
}
