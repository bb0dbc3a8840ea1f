package io.gpupipe.repair;

import io.gpupipe.model.observability.MetricNamespace;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Set;

/** Configuration of the repair logger (env vars GPUPIPE_REPAIR_*). */
@ConfigMapping(prefix = "gpupipe.repair")
public interface RepairConfig {
    /** SNS topic that receives critical-XID alarms (GPUPIPE_REPAIR_ALARM_TOPIC_ARN). */
    String alarmTopicArn();

    /** CloudWatch namespace of the GpuHealthEvents EMF metric. */
    @WithDefault(MetricNamespace.CONFIG_DEFAULT)
    String metricNamespace();

    /** XIDs that page (seed 001's auto-repair table; keep equal to GpuXids.SEED_CRITICAL unless deliberate). */
    @WithDefault("48,74,79,95,140")
    Set<Integer> criticalXids();
}
