package io.gpupipe.scaling;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.adapters.JsonLines;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.scaling.ScalingInputs;
import io.gpupipe.model.scaling.ScalingMetrics;
import io.gpupipe.model.scaling.ScalingPolicy;
import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.model.scaling.ScalingTargets;
import io.gpupipe.scaling.exception.ScalingInputException;
import io.gpupipe.scaling.exception.ScalingPublishException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One tick of the composite scaling metric: for each tier, read queue depth, task counts and GPU utilisation,
 * decide the desired task count ({@link io.gpupipe.model.scaling.ScalingPolicy}), log one structured line, then
 * publish every tier with one PutMetricData call. A tier whose queue or service cannot be read is left out (its
 * alarm sees missing data, not a wrong number); a GPU read failure is only "no GPU signal". After publishing, the
 * capacity follows up ({@link CapacityFollowUp}): to-zero alarms a wake switched off are switched on again once OK,
 * warm-pool groups shrink with their services. A {@link TierWake} from the router runs {@link #wake} instead.
 */
@ApplicationScoped
public class ScalingMetricService {
    private final ScalingConfig config;
    private final ScalingSources.QueueDepthReader queues;
    private final ScalingSources.TaskCountReader services;
    private final ScalingSources.GpuUtilizationReader gpus;
    private final ScalingSources.MetricWriter metrics;
    private final JsonLines lines;
    private final Map<TierDefinition, ScalingConfig.TierSettings> tiers;
    private final CapacityFollowUp capacity;

    @Inject
    ScalingMetricService(ScalingConfig config, ScalingSources.QueueDepthReader queues,
                         ScalingSources.TaskCountReader services, ScalingSources.GpuUtilizationReader gpus,
                         ScalingSources.MetricWriter metrics, JsonLines lines, CapacityFollowUp capacity) {
        this(config, queues, services, gpus, metrics, lines, capacity, TierCatalogue.bundled());
    }

    ScalingMetricService(ScalingConfig config, ScalingSources.QueueDepthReader queues,
                         ScalingSources.TaskCountReader services, ScalingSources.GpuUtilizationReader gpus,
                         ScalingSources.MetricWriter metrics, JsonLines lines, CapacityFollowUp capacity,
                         TierCatalogue catalogue) {
        this.capacity = capacity;
        this.tiers = config.settings(catalogue);
        this.config = config;
        this.queues = queues;
        this.services = services;
        this.gpus = gpus;
        this.metrics = metrics;
        this.lines = lines;
    }

    /** Computes and publishes every tier for the tick at {@code at}. */
    public ScalingRun tick(Instant at) {
        List<ScalingMetrics> computed = new ArrayList<>();
        List<ScalingRun.TierResult> results = new ArrayList<>();
        Map<String, String> failures = new LinkedHashMap<>();
        tiers.forEach((definition, settings) -> {
            String tier = definition.tier().wireName();
            try {
                ScalingMetrics tierMetrics = compute(definition, settings, at);
                computed.add(tierMetrics);
                results.add(new ScalingRun.TierResult(tier, tierMetrics.decision().desiredTasks(),
                        tierMetrics.decision().reason().name(), tierMetrics.decision().hadGpuSignal()));
            } catch (ScalingInputException e) {
                failures.put(tier, e.getMessage());
                lines.emit(line("ERROR", "scaling-metric-failed", at).put("tier", tier)
                        .put("reason", e.getMessage()).toString());
            }
        });
        if (computed.isEmpty()) {
            throw new ScalingPublishException("no tier could be read: " + failures, null);
        }
        try {
            metrics.publish(config.metricNamespace(), at, computed);
        } catch (RuntimeException e) {
            throw new ScalingPublishException("PutMetricData failed: " + e.getMessage(), e);
        }
        capacity.followUp(tiers, computed, at);
        return new ScalingRun(at.toString(), results, failures);
    }

    /**
     * The router's wake: if the tier's service is at zero and its queue holds work, set the tasks the policy wants
     * now ({@link CapacityFollowUp#wake}) instead of after the next scheduled run and the alarm's period.
     */
    public ScalingRun wake(TierWake wake) {
        TierDefinition tier = tiers.keySet().stream().filter(t -> t.tier().equals(wake.tier())).findFirst()
                .orElseThrow(() -> new ScalingInputException("wake for tier " + wake.tier() + ", which has no "
                        + "scaling settings"));
        ScalingConfig.TierSettings settings = tiers.get(tier);
        TaskCounts tasks = services.read(settings.cluster(), settings.service());
        String reason;
        int desired = tasks.desired();
        if (tasks.desired() > 0) {
            reason = "AWAKE";
        } else {
            QueueDepth depth = queues.read(settings.queueUrl());
            ScalingInputs inputs = new ScalingInputs(depth.visible(), depth.inFlight(), depth.delayed(),
                    tasks.running(), tasks.desired(), OptionalDouble.empty());
            desired = ScalingPolicy.decide(inputs, settings.targets(tier), settings.minimumAt(wake.at()))
                    .desiredTasks();
            reason = desired > 0 ? "WAKE" : "NOTHING_WAITING";
            if (desired > 0) {
                capacity.wake(settings, desired);
            }
        }
        lines.emit(line("INFO", "scaling-wake", wake.at()).put("tier", tier.tier().wireName())
                .put("serviceDesired", tasks.desired()).put("desiredTasks", desired).put("reason", reason)
                .toString());
        return new ScalingRun(wake.at().toString(), List.of(new ScalingRun.TierResult(tier.tier().wireName(),
                desired, reason, false)), Map.of());
    }

    private ScalingMetrics compute(TierDefinition tier, ScalingConfig.TierSettings settings, Instant at) {
        QueueDepth depth = queues.read(settings.queueUrl());
        TaskCounts tasks = services.read(settings.cluster(), settings.service());
        OptionalDouble gpu = OptionalDouble.empty();
        String gpuError = null;
        try {
            gpu = gpus.read(settings.cluster(), settings.service(), at);
        } catch (ScalingInputException e) {
            gpuError = e.getMessage();
        }
        ScalingInputs inputs = new ScalingInputs(depth.visible(), depth.inFlight(), depth.delayed(),
                tasks.running(), tasks.desired(), gpu);
        int warmMinimum = settings.minimumAt(at);
        ScalingTargets targets = settings.targets(tier);
        ScalingMetrics tierMetrics = ScalingMetrics.of(tier.tier().wireName(), inputs, targets, warmMinimum);
        ObjectNode line = line("INFO", "scaling-metric", at);
        tierMetrics.logFields().forEach((k, v) -> line.set(k, JobJson.mapper().valueToTree(v)));
        line.put("maxTasks", targets.maxTasks());
        line.put("warmMinimum", warmMinimum);
        if (gpuError != null) {
            line.put("level", "WARN").put("gpuError", gpuError);
        }
        lines.emit(line.toString());
        return tierMetrics;
    }

    private static ObjectNode line(String level, String event, Instant at) {
        return JobJson.mapper().createObjectNode().put("level", level).put("event", event).put("at", at.toString());
    }
}
