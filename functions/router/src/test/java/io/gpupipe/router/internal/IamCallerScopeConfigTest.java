package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.owner.IamCallerScope;
import io.gpupipe.model.owner.OwnerIdKeys;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The router's IAM caller scope comes from SAM's IamCallerScope, handed over as {@code GPUPIPE_ROUTER_IAM_CALLER_SCOPE};
 * whether it honours unkeyed owner ids from SAM's AcceptUnkeyedOwnerIds, as
 * {@code GPUPIPE_ROUTER_ACCEPT_UNKEYED_OWNER_IDS}.
 */
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

    @Test
    void acceptUnkeyedOwnerIds_shouldComeFromTheSharedEnvVar_andBeOffWhenNotConfigured() {
        assertThat(RoutingMetricsNamespaceTest.config(Map.of(OwnerIdKeys.ACCEPT_UNKEYED_ENV, "true"))
                .acceptUnkeyedOwnerIds()).isTrue();
        assertThat(RoutingMetricsNamespaceTest.config(Map.of()).acceptUnkeyedOwnerIds()).isFalse();
    }
}
