package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.owner.IamCallerScope;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The router's IAM caller scope comes from SAM's IamCallerScope, handed over as {@code GPUPIPE_ROUTER_IAM_CALLER_SCOPE}. */
class IamCallerScopeConfigTest {

    @Test
    void iamCallerScope_shouldComeFromTheSharedEnvVar() {
        assertThat(RoutingMetricsNamespaceTest.config(Map.of(IamCallerScope.ENV_VAR, "session")).iamCallerScope())
                .isEqualTo(IamCallerScope.SESSION);
        assertThat(RoutingMetricsNamespaceTest.config(Map.of(IamCallerScope.ENV_VAR, "role")).iamCallerScope())
                .isEqualTo(IamCallerScope.ROLE);
    }

    @Test
    void iamCallerScope_shouldBeRole_whenNotConfigured() {
        assertThat(RoutingMetricsNamespaceTest.config(Map.of()).iamCallerScope()).isEqualTo(IamCallerScope.DEFAULT)
                .isEqualTo(IamCallerScope.ROLE);
    }
}
