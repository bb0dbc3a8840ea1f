package io.gpupipe.jobs.architecture;

import io.gpupipe.jobs.JobLifecycle;
import io.gpupipe.testsupport.ImportCircles;

/** This module's main code forms no import circle, between packages or between top-level classes. */
class ImportCirclesTest extends ImportCircles {
    ImportCirclesTest() {
        super(JobLifecycle.class);
    }
}
