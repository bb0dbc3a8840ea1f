package io.gpupipe.localstack.console;

import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.model.observability.JobMetrics;
import io.gpupipe.model.scaling.ScalingMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The desired task count the scaling-metric function published per tier ({@code DesiredTasks}, dimension
 * {@code Tier}) over the last minutes, as the CloudWatch stand-in recorded its PutMetricData calls.
 */
final class ScalingWatch {
    /** One published value. */
    record Point(Instant at, double value) {
    }

    private final CloudWatchStandIn cloudWatch;

    ScalingWatch(CloudWatchStandIn cloudWatch) {
        this.cloudWatch = cloudWatch;
    }

    /** Per tier (by name), the values published since {@code now - window}, oldest first. */
    Map<String, List<Point>> desiredTasks(Instant now, Duration window) {
        Instant since = now.minus(window);
        Map<String, List<Point>> series = new TreeMap<>();
        for (CloudWatchStandIn.PutCall call : cloudWatch.puts()) {
            for (CloudWatchStandIn.Datum datum : call.data()) {
                String tier = datum.dimensions().get(JobMetrics.TIER);
                if (ScalingMetrics.DESIRED_TASKS.equals(datum.name()) && tier != null && datum.timestamp() != null
                        && !datum.timestamp().isBefore(since)) {
                    series.computeIfAbsent(tier, t -> new ArrayList<>()).add(new Point(datum.timestamp(),
                            datum.value()));
                }
            }
        }
        series.values().forEach(points -> points.sort(java.util.Comparator.comparing(Point::at)));
        return series;
    }
}
