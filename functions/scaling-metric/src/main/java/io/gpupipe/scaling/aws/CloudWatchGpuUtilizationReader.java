package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.ScalingConfig;
import io.gpupipe.scaling.ScalingSources;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;

/**
 * The service's GPU compute utilisation (Container Insights {@code TaskGPUUtilization} by ClusterName and
 * ServiceName) from CloudWatch GetMetricData: the newest datapoint within the lookback window. No datapoint is an
 * empty answer (no signal), never 0.
 */
@ApplicationScoped
public class CloudWatchGpuUtilizationReader implements ScalingSources.GpuUtilizationReader {
    static final String QUERY_ID = "gpu";

    private final CloudWatchClient cloudWatch;
    private final ScalingConfig.Gpu gpu;

    CloudWatchGpuUtilizationReader(CloudWatchClient cloudWatch, ScalingConfig config) {
        this.cloudWatch = cloudWatch;
        this.gpu = config.gpu();
    }

    @Override
    public OptionalDouble read(String cluster, String service, Instant at) {
        MetricDataQuery query = MetricDataQuery.builder().id(QUERY_ID).returnData(true)
                .metricStat(stat -> stat.period((int) gpu.period().toSeconds()).stat(gpu.statistic())
                        .metric(metric -> metric.namespace(gpu.namespace()).metricName(gpu.metricName())
                                .dimensions(dimension("ClusterName", name(cluster)),
                                        dimension("ServiceName", name(service)))))
                .build();
        GetMetricDataResponse response;
        try {
            response = cloudWatch.getMetricData(b -> b.metricDataQueries(query)
                    .startTime(at.minus(gpu.lookback())).endTime(at).scanBy(ScanBy.TIMESTAMP_DESCENDING));
        } catch (SdkException e) {
            throw new ScalingInputException("CloudWatch GetMetricData failed: " + e.getMessage(), e);
        }
        return response.metricDataResults().stream().filter(r -> QUERY_ID.equals(r.id())).findFirst()
                .map(CloudWatchGpuUtilizationReader::newest).orElse(OptionalDouble.empty());
    }

    private static OptionalDouble newest(MetricDataResult result) {
        List<Instant> timestamps = result.timestamps();
        List<Double> values = result.values();
        int best = -1;
        for (int i = 0; i < Math.min(timestamps.size(), values.size()); i++) {
            if (best < 0 || timestamps.get(i).isAfter(timestamps.get(best))) {
                best = i;
            }
        }
        return best < 0 ? OptionalDouble.empty() : OptionalDouble.of(values.get(best));
    }

    private static Dimension dimension(String name, String value) {
        return Dimension.builder().name(name).value(value).build();
    }

    /** Container Insights dimensions carry names, while configuration may give ARNs. */
    static String name(String nameOrArn) {
        int slash = nameOrArn.lastIndexOf('/');
        return nameOrArn.startsWith("arn:") && slash >= 0 ? nameOrArn.substring(slash + 1) : nameOrArn;
    }
}
