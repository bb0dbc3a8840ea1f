package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.ScalingSources;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;

/** DescribeAlarms by name, DisableAlarmActions and EnableAlarmActions. */
@ApplicationScoped
public class CloudWatchAlarmSwitch implements ScalingSources.AlarmSwitch {
    private final CloudWatchClient cloudWatch;

    CloudWatchAlarmSwitch(CloudWatchClient cloudWatch) {
        this.cloudWatch = cloudWatch;
    }

    @Override
    public Map<String, ScalingSources.AlarmStatus> read(List<String> names) {
        Map<String, ScalingSources.AlarmStatus> found = new LinkedHashMap<>();
        try {
            for (MetricAlarm alarm : cloudWatch.describeAlarms(b -> b.alarmNames(names)).metricAlarms()) {
                found.put(alarm.alarmName(), new ScalingSources.AlarmStatus(Boolean.TRUE.equals(alarm.actionsEnabled()),
                        alarm.stateValueAsString()));
            }
        } catch (SdkException e) {
            throw new ScalingInputException("CloudWatch DescribeAlarms " + names + " failed: " + e.getMessage(), e);
        }
        return found;
    }

    @Override
    public void disable(String name) {
        try {
            cloudWatch.disableAlarmActions(b -> b.alarmNames(name));
        } catch (SdkException e) {
            throw new ScalingInputException("CloudWatch DisableAlarmActions " + name + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void enable(List<String> names) {
        try {
            cloudWatch.enableAlarmActions(b -> b.alarmNames(names));
        } catch (SdkException e) {
            throw new ScalingInputException("CloudWatch EnableAlarmActions " + names + " failed: " + e.getMessage(),
                    e);
        }
    }
}
