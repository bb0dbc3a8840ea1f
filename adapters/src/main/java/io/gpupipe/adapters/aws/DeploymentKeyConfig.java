package io.gpupipe.adapters.aws;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/**
 * Where the deployment key is ({@link DeploymentKeys}), the same two settings in every component that reads it
 * (router, batch, dead-letter, worker): {@code GPUPIPE_DEPLOYMENT_KEY_SECRET} or {@code GPUPIPE_DEPLOYMENT_KEY_FILE}
 * ({@link io.gpupipe.model.seal.DeploymentKey#SECRET_ENV}, {@link io.gpupipe.model.seal.DeploymentKey#FILE_ENV}).
 */
@ConfigMapping(prefix = "gpupipe.deployment-key")
public interface DeploymentKeyConfig {
    /** The Secrets Manager secret (ARN or name) holding the key; SAM and the CDK app set it. */
    Optional<String> secret();

    /** A file holding the key instead (the local stack's). */
    Optional<String> file();
}
