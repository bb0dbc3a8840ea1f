package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.ScalingSources;
import io.gpupipe.scaling.TaskCounts;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.DescribeServicesResponse;
import software.amazon.awssdk.services.ecs.model.Service;

/** Running and desired task counts from ECS DescribeServices. */
@ApplicationScoped
public class EcsTaskCountReader implements ScalingSources.TaskCountReader {
    private final EcsClient ecs;

    EcsTaskCountReader(EcsClient ecs) {
        this.ecs = ecs;
    }

    @Override
    public TaskCounts read(String cluster, String service) {
        DescribeServicesResponse response;
        try {
            response = ecs.describeServices(b -> b.cluster(cluster).services(service));
        } catch (SdkException e) {
            throw new ScalingInputException("ECS DescribeServices " + cluster + "/" + service + " failed: "
                    + e.getMessage(), e);
        }
        if (!response.failures().isEmpty()) {
            throw new ScalingInputException("ECS service " + cluster + "/" + service + ": "
                    + response.failures().get(0).reason());
        }
        Service found = response.services().stream()
                .filter(s -> service.equals(s.serviceName()) || service.equals(s.serviceArn()))
                .findFirst()
                .orElseThrow(() -> new ScalingInputException("ECS service " + cluster + "/" + service
                        + " not in the DescribeServices answer"));
        return new TaskCounts(nonNull(found.runningCount()), nonNull(found.desiredCount()));
    }

    private static int nonNull(Integer value) {
        return value == null ? 0 : value;
    }
}
