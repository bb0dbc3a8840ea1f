package io.gpupipe.repair;

import io.gpupipe.repair.domain.EventBridgeEnvelope;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Types Jackson reads or writes by reflection, kept for native images. */
@RegisterForReflection(targets = {RepairReport.class, EventBridgeEnvelope.class})
public final class NativeReflection {
    private NativeReflection() {
    }
}
