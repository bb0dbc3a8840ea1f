package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.scaling.ScalingMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.CreateAlarmOptions;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TextWidget;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;
import software.constructs.Construct;

/**
 * Alarms and the dashboard (change independently of the workload). Alarms go to the SAM stack's alarm topic:
 * per tier GPU temperature > 90 °C, XID errors > 0, GPU memory > 85 % (warning) and > 95 % (critical), a job
 * waiting in the tier's queue for over an hour; the DLQ holding anything, or a message the dead-letter function kept
 * for over 15 minutes; per tier, p99 submit-to-result latency over 5 minutes above the tier's objective (its cold
 * start plus model timeout, shared-model JobMetrics). Missing data (a tier at zero tasks) is not breaching. The
 * dashboard shows p50/p95/p99 of submit-to-result, queue wait, inference time and tokens/s per tier.
 */
public class MonitoringStack extends Stack {
    /** Container Insights GPU metrics of ECS Managed Instances (names as in seed 001). */
    static final String GPU_TEMPERATURE = "TaskGPUTemperature";
    static final String GPU_XID_COUNT = "TaskGPURestartAppXidCount";
    static final String GPU_MEMORY = "TaskGPUMemoryUtilization";
    static final String GPU_UTILIZATION = "TaskGPUUtilization";
    static final String GPU_POWER = "TaskGPUPowerDraw";

    /** A job waiting this long means its tier is not scaling out: days before SQS's 14-day retention drops it. */
    static final int QUEUE_AGE_ALARM_SECONDS = 3600;
    /** The dead-letter function settles a readable message in seconds; older ones are kept (unreadable, S3 down). */
    static final int DLQ_AGE_ALARM_SECONDS = 900;
    static final String OLDEST_MESSAGE_AGE = "ApproximateAgeOfOldestMessage";
    /** Percentile alarms and widgets aggregate 5 minutes: at low traffic a minute holds too few jobs for a p99. */
    static final software.amazon.awscdk.Duration LATENCY_PERIOD = software.amazon.awscdk.Duration.minutes(5);
    static final List<String> PERCENTILES = List.of("p50", "p95", "p99");

    private final List<Alarm> alarms = new ArrayList<>();
    private final Dashboard dashboard;

    public MonitoringStack(Construct scope, String id, StackProps props, SamExports sam, List<TierSpec> tiers) {
        super(scope, id, props);
        ITopic alarmTopic = Topic.fromTopicArn(this, "AlarmTopic", sam.alarmTopicArn());
        String cluster = sam.clusterName();
        for (TierSpec spec : tiers) {
            Tier tier = spec.tier();
            String service = sam.serviceName(tier);
            String name = tier.wireName();
            alarm("GpuTemperature-" + name, GpupipeMetrics.serviceMetric(cluster, service, GPU_TEMPERATURE, "Maximum"),
                    90, name + ": GPU temperature above 90 °C", alarmTopic);
            alarm("GpuXid-" + name, GpupipeMetrics.serviceMetric(cluster, service, GPU_XID_COUNT, "Maximum"),
                    0, name + ": GPU XID errors (auto repair may replace the instance)", alarmTopic);
            alarm("GpuMemoryWarning-" + name, GpupipeMetrics.serviceMetric(cluster, service, GPU_MEMORY, "Maximum"),
                    85, name + ": WARNING GPU memory above 85 %", alarmTopic);
            alarm("GpuMemoryCritical-" + name, GpupipeMetrics.serviceMetric(cluster, service, GPU_MEMORY, "Maximum"),
                    95, name + ": CRITICAL GPU memory above 95 %", alarmTopic);
            alarm("QueueAge-" + name, GpupipeMetrics.queueMetric(sam.queueName(tier), OLDEST_MESSAGE_AGE),
                    QUEUE_AGE_ALARM_SECONDS, name + ": a job has waited over an hour in the queue", alarmTopic);
            alarm("SubmitToResultP99-" + name, GpupipeMetrics.tierPercentile(sam.metricNamespace(), tier,
                    JobMetrics.SUBMIT_TO_RESULT_MS, "p99", LATENCY_PERIOD), spec.p99SubmitToResult().toMillis(),
                    name + ": p99 submit-to-result above " + spec.p99SubmitToResult().toMinutes()
                            + " min (cold start + model timeout)", alarmTopic);
        }
        alarm("DeadLetterQueue", GpupipeMetrics.queueMetric(sam.dlqName(), "ApproximateNumberOfMessagesVisible"), 0,
                "jobs in the dead-letter queue (read the ErrorReason attribute)", alarmTopic);
        alarm("DeadLetterQueueAge", GpupipeMetrics.queueMetric(sam.dlqName(), OLDEST_MESSAGE_AGE),
                DLQ_AGE_ALARM_SECONDS, "the dead-letter function keeps a message it cannot settle (see its log for "
                        + "the body's SHA-256)", alarmTopic);
        dashboard = Dashboard.Builder.create(this, "Dashboard").build();
        DashboardLayout.addTo(dashboard, sam, tiers);
    }

    private void alarm(String id, Metric metric, double threshold, String description, ITopic topic) {
        Alarm alarm = metric.createAlarm(this, id, CreateAlarmOptions.builder()
                .alarmDescription("gpupipe " + description)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
                .threshold(threshold)
                .evaluationPeriods(1)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build());
        alarm.addAlarmAction(new SnsAction(topic));
        alarms.add(alarm);
    }

    public List<Alarm> getAlarms() {
        return List.copyOf(alarms);
    }

    public Dashboard getDashboard() {
        return dashboard;
    }

    /** The four dashboard sections: routing, one per tier, GPU hardware. */
    static final class DashboardLayout {
        private DashboardLayout() {
        }

        static void addTo(Dashboard dashboard, SamExports sam, List<TierSpec> tiers) {
            String ns = sam.metricNamespace();
            String cluster = sam.clusterName();
            List<IMetric> routed = new ArrayList<>();
            tiers.forEach(t -> routed.add(GpupipeMetrics.tierMetric(ns, t.tier(), "JobsRouted", "Sum")));
            dashboard.addWidgets(header("Routing"));
            List<IMetric> submitLatency = new ArrayList<>();
            tiers.forEach(t -> submitLatency.addAll(percentiles(ns, t.tier(), JobMetrics.SUBMIT_LATENCY_MS)));
            dashboard.addWidgets(graph("Jobs routed per tier", routed, 8),
                    graph("Router submit latency ms (p50/p95/p99)", submitLatency, 8),
                    graph("Classifier fallbacks", List.of(Metric.Builder.create().namespace(ns)
                            .metricName("ClassifierFallbacks").dimensionsMap(Map.of("Classifier", "bedrock"))
                            .statistic("Sum").period(GpupipeMetrics.MINUTE).build()), 8));
            List<IMetric> temperatures = new ArrayList<>();
            List<IMetric> power = new ArrayList<>();
            List<IMetric> xids = new ArrayList<>();
            for (TierSpec spec : tiers) {
                Tier tier = spec.tier();
                String service = sam.serviceName(tier);
                dashboard.addWidgets(header("Tier " + tier.wireName() + " (" + spec.model().model() + ", GPU "
                        + spec.gpuShare().ecsValue() + ")"));
                dashboard.addWidgets(
                        graph("Queue", List.of(
                                GpupipeMetrics.queueMetric(sam.queueName(tier), "ApproximateNumberOfMessagesVisible"),
                                GpupipeMetrics.queueMetric(sam.queueName(tier),
                                        "ApproximateNumberOfMessagesNotVisible")), 8),
                        graph("Tasks", List.of(
                                GpupipeMetrics.tierMetric(ns, tier, ScalingMetrics.DESIRED_TASKS, "Maximum"),
                                GpupipeMetrics.tierMetric(ns, tier, ScalingMetrics.SERVICE_DESIRED_TASKS, "Maximum"),
                                GpupipeMetrics.tierMetric(ns, tier, ScalingMetrics.RUNNING_TASKS, "Maximum")), 8),
                        graph("GPU utilization / memory %", List.of(
                                GpupipeMetrics.serviceMetric(cluster, service, GPU_UTILIZATION, "Average"),
                                GpupipeMetrics.serviceMetric(cluster, service, GPU_MEMORY, "Maximum")), 8));
                dashboard.addWidgets(
                        graph("Submit to result ms", percentiles(ns, tier, JobMetrics.SUBMIT_TO_RESULT_MS), 6),
                        graph("Queue wait ms", percentiles(ns, tier, JobMetrics.QUEUE_WAIT_MS), 6),
                        graph("Inference ms", percentiles(ns, tier, JobMetrics.INFERENCE_MS), 6),
                        graph("Tokens/s", percentiles(ns, tier, JobMetrics.TOKENS_PER_SECOND), 6));
                temperatures.add(GpupipeMetrics.serviceMetric(cluster, service, GPU_TEMPERATURE, "Maximum"));
                power.add(GpupipeMetrics.serviceMetric(cluster, service, GPU_POWER, "Average"));
                xids.add(GpupipeMetrics.serviceMetric(cluster, service, GPU_XID_COUNT, "Maximum"));
            }
            dashboard.addWidgets(header("GPU hardware"));
            dashboard.addWidgets(graph("Temperature °C", temperatures, 8), graph("Power draw W", power, 8),
                    graph("XID errors", xids, 8));
        }

        /** p50, p95 and p99 of a per-tier job metric. */
        private static List<IMetric> percentiles(String ns, Tier tier, String metric) {
            List<IMetric> lines = new ArrayList<>();
            PERCENTILES.forEach(p -> lines.add(GpupipeMetrics.tierPercentile(ns, tier, metric, p, LATENCY_PERIOD)
                    .with(MetricOptions.builder().label(tier.wireName() + " " + p).build())));
            return lines;
        }

        private static IWidget header(String text) {
            return TextWidget.Builder.create().markdown("## " + text).width(24).height(1).build();
        }

        private static IWidget graph(String title, List<IMetric> metrics, int width) {
            return GraphWidget.Builder.create().title(title).left(metrics).width(width).height(6).build();
        }
    }
}
