package io.gpupipe.model.scaling;

import java.util.Objects;

/**
 * The EC2 Auto Scaling group with a warm pool that a tier may run on instead of Managed Instances (docs/cold-start.md,
 * capacity): named after the tier's ECS service, so that the CDK app that creates it and the scaling function that
 * sets its capacity on a wake and shrinks it with the service agree without another parameter.
 */
public final class WarmCapacity {
    /** Appended to the service's name. */
    public static final String GROUP_SUFFIX = "-capacity";

    private WarmCapacity() {
    }

    /** The Auto Scaling group of the service named {@code serviceName}. */
    public static String groupName(String serviceName) {
        return Objects.requireNonNull(serviceName, "serviceName") + GROUP_SUFFIX;
    }

    /**
     * The group's desired capacity for a service that wants {@code serviceDesired} tasks (one task per instance on
     * the GPU tiers): raised to it on a wake, and lowered to it when the service has scaled in, so an idle instance
     * stops within a scaling run instead of after ECS managed scaling's 15-minute scale-in; {@code groupDesired} is
     * the group's current value. Empty when nothing should change.
     */
    public static java.util.OptionalInt adjust(int groupDesired, int serviceDesired, boolean raise) {
        if (raise ? serviceDesired > groupDesired : serviceDesired < groupDesired) {
            return java.util.OptionalInt.of(serviceDesired);
        }
        return java.util.OptionalInt.empty();
    }
}
