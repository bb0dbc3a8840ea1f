package io.gpupipe.adapters.aws;

import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.seal.DeploymentKeyVersions;
import io.gpupipe.model.seal.MessageSeal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;

/**
 * Reads the {@link DeploymentKey} once, at start: from Secrets Manager in AWS ({@link DeploymentKey#SECRET_ENV}: its
 * {@code AWSCURRENT} version seals, its {@code AWSPREVIOUS} version, while there is one, still verifies, so a rotation
 * does not strand messages in flight, and callers' earlier owner ids stay honoured), or from a file
 * ({@link DeploymentKey#FILE_ENV}, the local stack's). With
 * neither configured there is no key: nothing is sealed and no message is trusted to name an API caller's owner.
 */
public final class DeploymentKeys {
    private static final Logger LOG = Logger.getLogger(DeploymentKeys.class);
    private static final String CURRENT = "AWSCURRENT";
    private static final String PREVIOUS = "AWSPREVIOUS";

    private DeploymentKeys() {
    }

    /** The seals of the key {@code config} names; {@code secrets} is asked for a client only when a secret is named. */
    public static Optional<MessageSeal> seals(DeploymentKeyConfig config, Supplier<SecretsManagerClient> secrets) {
        return versions(config, secrets).map(DeploymentKeyVersions::seal);
    }

    /**
     * The versions of the key {@code config} names, none when it names no key; {@code secrets} is asked for a client
     * only when a secret is named.
     */
    public static Optional<DeploymentKeyVersions> versions(DeploymentKeyConfig config,
                                                           Supplier<SecretsManagerClient> secrets) {
        Optional<String> file = config.file().filter(f -> !f.isBlank());
        Optional<String> secret = config.secret().filter(s -> !s.isBlank());
        if (file.isPresent() && secret.isPresent()) {
            throw new IllegalStateException("set one of " + DeploymentKey.FILE_ENV + " and " + DeploymentKey.SECRET_ENV
                    + ", not both");
        }
        if (file.isPresent()) {
            return Optional.of(DeploymentKeyVersions.of(read(Path.of(file.get()))));
        }
        if (secret.isPresent()) {
            return Optional.of(fromSecret(secrets.get(), secret.get()));
        }
        LOG.warnf("no deployment key (%s or %s): queue messages are not sealed, every job message is taken as its"
                + " producer's (the queue owner's), and owner ids are unkeyed", DeploymentKey.SECRET_ENV,
                DeploymentKey.FILE_ENV);
        return Optional.empty();
    }

    /** The secret {@code secretId}'s current version, and its previous one while it has one. */
    public static DeploymentKeyVersions fromSecret(SecretsManagerClient secrets, String secretId) {
        String current = secrets.getSecretValue(b -> b.secretId(secretId).versionStage(CURRENT)).secretString();
        Optional<String> previous;
        try {
            previous = Optional.ofNullable(secrets.getSecretValue(b -> b.secretId(secretId).versionStage(PREVIOUS))
                    .secretString());
        } catch (ResourceNotFoundException e) {
            previous = Optional.empty(); // never rotated
        }
        return new DeploymentKeyVersions(DeploymentKey.of(current), previous.map(DeploymentKey::of));
    }

    /** The key stored in {@code file}. */
    public static DeploymentKey read(Path file) {
        try {
            return DeploymentKey.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the deployment key " + file + ": " + e.getMessage(), e);
        }
    }
}
