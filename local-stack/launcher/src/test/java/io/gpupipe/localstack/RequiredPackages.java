package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localstack.internal.ComponentPackages;

/** The stack tests run the real packaged components; the reactor builds them before this module. */
final class RequiredPackages {
    private RequiredPackages() {
    }

    static void assertBuilt() {
        ComponentPackages packages = new ComponentPackages(TestPaths.repo());
        String hint = " is missing: build the components first (the reactor does it before this module), e.g. "
                + "./mvnw -B -Dmaven.test.skip=true -pl functions/router,gpu-worker -am package";
        assertThat(packages.functionZip("router")).as("functions/router/target/function.zip" + hint).isPresent();
        assertThat(packages.workerRunner()).as("gpu-worker/target/quarkus-app/quarkus-run.jar" + hint).isPresent();
    }
}
