package io.gpupipe.scaling.aws;

import io.gpupipe.model.scaling.ScalingMetrics;
import io.gpupipe.scaling.ScalingSources;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.MetricDatum;
import software.amazon.awssdk.services.cloudwatch.model.StandardUnit;

/** One PutMetricData call per tick: each tier's values with the dimension {@code Tier}, stamped {@code at}. */
@ApplicationScoped
public class CloudWatchMetricWriter implements ScalingSources.MetricWriter {
    static final String TIER_DIMENSION = "Tier";

    private final CloudWatchClient cloudWatch;

    CloudWatchMetricWriter(CloudWatchClient cloudWatch) {
        this.cloudWatch = cloudWatch;
    }

    @Override
    public void publish(String namespace, Instant at, List<ScalingMetrics> tiers) {
        List<MetricDatum> data = new ArrayList<>();
        for (ScalingMetrics tier : tiers) {
            Dimension dimension = Dimension.builder().name(TIER_DIMENSION).value(tier.tier()).build();
            for (ScalingMetrics.Value value : tier.values()) {
                data.add(MetricDatum.builder().metricName(value.name()).dimensions(dimension).timestamp(at)
                        .value(value.value()).unit(unit(value.unit())).build());
            }
        }
        cloudWatch.putMetricData(b -> b.namespace(namespace).metricData(data));
    }

    private static StandardUnit unit(ScalingMetrics.Unit unit) {
        return unit == ScalingMetrics.Unit.Percent ? StandardUnit.PERCENT : StandardUnit.COUNT;
    }
}
