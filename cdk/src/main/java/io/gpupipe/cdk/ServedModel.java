package io.gpupipe.cdk;

import io.gpupipe.cdk.sizing.ModelFootprint;
import java.util.List;

/**
 * What a tier serves, as its {@link ModelEnvFile} pins it: the sizing gate's footprint, the repository baked into its
 * image, the image tag, and the commit of the repository (a deployment may override it with
 * {@code -c <tier>ModelRevision}), and the EC2 instance types (patterns) that may run it (INSTANCE_TYPES; empty:
 * {@link TierSpec#G_FAMILIES}). {@link Tiers} joins it with the catalogue's tier.
 */
public record ServedModel(ModelFootprint footprint, String repository, String imageTag, String revision,
                          List<String> instanceTypes) {
    public ServedModel {
        instanceTypes = List.copyOf(instanceTypes);
    }
}
