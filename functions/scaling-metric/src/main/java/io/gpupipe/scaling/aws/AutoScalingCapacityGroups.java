package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.ScalingSources;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;

/** DescribeAutoScalingGroups by name and SetDesiredCapacity (not honouring cooldowns: ECS owns the group's policy). */
@ApplicationScoped
public class AutoScalingCapacityGroups implements ScalingSources.CapacityGroups {
    private final AutoScalingClient autoScaling;

    AutoScalingCapacityGroups(AutoScalingClient autoScaling) {
        this.autoScaling = autoScaling;
    }

    @Override
    public Map<String, Integer> desired(List<String> names) {
        Map<String, Integer> found = new LinkedHashMap<>();
        try {
            for (AutoScalingGroup group : autoScaling.describeAutoScalingGroups(b -> b.autoScalingGroupNames(names))
                    .autoScalingGroups()) {
                found.put(group.autoScalingGroupName(), group.desiredCapacity() == null ? 0 : group.desiredCapacity());
            }
        } catch (SdkException e) {
            throw new ScalingInputException("DescribeAutoScalingGroups " + names + " failed: " + e.getMessage(), e);
        }
        return found;
    }

    @Override
    public void setDesired(String name, int count) {
        try {
            autoScaling.setDesiredCapacity(b -> b.autoScalingGroupName(name).desiredCapacity(count)
                    .honorCooldown(false));
        } catch (SdkException e) {
            throw new ScalingInputException("SetDesiredCapacity " + name + " " + count + " failed: " + e.getMessage(),
                    e);
        }
    }
}
