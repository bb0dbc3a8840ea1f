package io.gpupipe.scaling;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/** The handler's answer for one tick: each tier's published desired count, and the tiers that failed. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ScalingRun(String at, List<TierResult> tiers, Map<String, String> failures) {

    /** One tier's published value and why. */
    public record TierResult(String tier, int desiredTasks, String reason, boolean gpuSignal) {
    }

    public ScalingRun {
        tiers = List.copyOf(tiers);
        failures = Map.copyOf(failures);
    }
}
