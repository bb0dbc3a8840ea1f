package io.gpupipe.scaling;

import io.gpupipe.adapters.JsonLines;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.scaling.ScalingMetrics;
import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.model.scaling.WarmCapacity;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What the scaling function does to capacity itself, besides publishing the metric the alarms act on
 * (docs/cold-start.md):
 * <ul>
 *   <li>a wake of a tier at zero switches off the actions of its to-zero alarm (in ALARM through the idle period, it
 *   re-invokes its "set 0" every minute and would undo the wake), sets the service's desired count, and raises its
 *   warm-pool group, if the tier has one, so that a stopped instance starts without waiting for ECS managed
 *   scaling's alarm;</li>
 *   <li>each scheduled run switches those actions on again once the alarm is OK (it has evaluated a period with the
 *   job sent), and lowers a warm-pool group to its service's desired count, so an idle instance stops within a
 *   minute instead of after managed scaling's 15-minute scale-in (instances with tasks are protected).</li>
 * </ul>
 * The follow-up is best effort: a failure is logged and retried at the next run, never a failed tick.
 */
@ApplicationScoped
public class CapacityFollowUp {
    private final ScalingSources.ServiceWriter services;
    private final ScalingSources.AlarmSwitch alarms;
    private final ScalingSources.CapacityGroups groups;
    private final JsonLines lines;

    CapacityFollowUp(ScalingSources.ServiceWriter services, ScalingSources.AlarmSwitch alarms,
                     ScalingSources.CapacityGroups groups, JsonLines lines) {
        this.services = services;
        this.alarms = alarms;
        this.groups = groups;
        this.lines = lines;
    }

    /** The tier at zero gets {@code desired} tasks now, and its group as many instances. */
    void wake(ScalingConfig.TierSettings tier, int desired) {
        alarms.disable(TierWake.toZeroAlarmName(serviceName(tier)));
        services.setDesired(tier.cluster(), tier.service(), desired);
        String group = WarmCapacity.groupName(serviceName(tier));
        Integer groupDesired = groups.desired(List.of(group)).get(group);
        if (groupDesired != null) {
            OptionalInt raised = WarmCapacity.adjust(groupDesired, desired, true);
            if (raised.isPresent()) {
                groups.setDesired(group, raised.getAsInt());
            }
        }
    }

    /** After a scheduled run: re-enable OK to-zero alarms, shrink warm-pool groups to their services. */
    void followUp(Map<TierDefinition, ScalingConfig.TierSettings> tiers, List<ScalingMetrics> computed, Instant at) {
        List<String> alarmNames = tiers.values().stream().map(t -> TierWake.toZeroAlarmName(serviceName(t)))
                .toList();
        try {
            List<String> switchOn = new ArrayList<>();
            alarms.read(alarmNames).forEach((name, status) -> {
                if (!status.actionsEnabled() && !"ALARM".equals(status.state())) {
                    switchOn.add(name);
                }
            });
            if (!switchOn.isEmpty()) {
                alarms.enable(switchOn);
                log("scaling-alarms-enabled", at, "alarms", String.join(",", switchOn));
            }
        } catch (ScalingInputException e) {
            log("scaling-follow-up-failed", at, "reason", e.getMessage());
        }
        try {
            Map<String, ScalingMetrics> byGroup = new LinkedHashMap<>();
            tiers.forEach((definition, settings) -> computed.stream()
                    .filter(m -> m.tier().equals(definition.tier().wireName())).findFirst()
                    .ifPresent(m -> byGroup.put(WarmCapacity.groupName(serviceName(settings)), m)));
            Map<String, Integer> found = byGroup.isEmpty() ? Map.of() : groups.desired(List.copyOf(byGroup.keySet()));
            for (Map.Entry<String, Integer> group : found.entrySet()) {
                int serviceDesired = byGroup.get(group.getKey()).inputs().desired();
                OptionalInt lowered = WarmCapacity.adjust(group.getValue(), serviceDesired, false);
                if (lowered.isPresent()) {
                    groups.setDesired(group.getKey(), lowered.getAsInt());
                    log("scaling-capacity-lowered", at, "group", group.getKey() + "=" + lowered.getAsInt());
                }
            }
        } catch (ScalingInputException e) {
            log("scaling-follow-up-failed", at, "reason", e.getMessage());
        }
    }

    /** The service's name (an ARN's last segment). */
    static String serviceName(ScalingConfig.TierSettings tier) {
        String service = tier.service();
        return service.substring(service.lastIndexOf('/') + 1);
    }

    private void log(String event, Instant at, String field, String value) {
        lines.emit(JobJson.mapper().createObjectNode().put("level", "INFO").put("event", event)
                .put("at", at.toString()).put(field, value).toString());
    }
}
