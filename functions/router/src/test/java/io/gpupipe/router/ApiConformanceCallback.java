package io.gpupipe.router;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;

/**
 * Puts {@link ApiConformanceFilter} among RestAssured's default filters before each {@code @QuarkusTest} method of
 * the module (registered in {@code META-INF/services}); it runs in the application's class loader, where the tests'
 * RestAssured lives.
 */
public final class ApiConformanceCallback implements QuarkusTestBeforeEachCallback {
    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        ApiConformanceFilter.install();
    }
}
