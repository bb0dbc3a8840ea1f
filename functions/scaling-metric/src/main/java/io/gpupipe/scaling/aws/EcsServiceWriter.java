package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.ScalingSources;
import io.gpupipe.scaling.exception.ScalingInputException;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;

/** ECS UpdateService with only the desired count (no new deployment). */
@ApplicationScoped
public class EcsServiceWriter implements ScalingSources.ServiceWriter {
    private final EcsClient ecs;

    EcsServiceWriter(EcsClient ecs) {
        this.ecs = ecs;
    }

    @Override
    public void setDesired(String cluster, String service, int count) {
        try {
            ecs.updateService(b -> b.cluster(cluster).service(service).desiredCount(count));
        } catch (SdkException e) {
            throw new ScalingInputException("ECS UpdateService " + cluster + "/" + service + " desiredCount " + count
                    + " failed: " + e.getMessage(), e);
        }
    }
}
