package io.gpupipe.scaling;

import io.gpupipe.scaling.event.ScheduledEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Types Jackson reads or writes by reflection, kept for native images. */
@RegisterForReflection(targets = {ScheduledEvent.class, ScalingRun.class, ScalingRun.TierResult.class})
public final class NativeReflection {
    private NativeReflection() {
    }
}
