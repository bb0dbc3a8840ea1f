package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.ContainerInsights;
import software.amazon.awscdk.services.kms.IKey;
import software.amazon.awscdk.services.kms.Key;
import software.constructs.Construct;

/**
 * The GPU workload (changes with every model or worker release): the ECS cluster with Container Insights enhanced
 * observability (GPU metrics) and one {@link TierService} per tier. The cluster and service names come from the SAM
 * stack, which needs them first (scaling metric, repair-logger rule).
 */
public class WorkerStack extends Stack {
    private final Cluster cluster;
    private final Map<Tier, TierService> tiers = new LinkedHashMap<>();

    /** Inputs besides the other stacks. */
    public record Inputs(SamExports sam, List<TierSpec> tiers, String workerImageTag,
                         Optional<String> resultsKmsKeyArn) {
        public Inputs {
            tiers = List.copyOf(tiers);
        }
    }

    public WorkerStack(Construct scope, String id, StackProps props, IVpc vpc, IRepository workerRepository,
                       IRepository modelServerRepository, Inputs inputs) {
        super(scope, id, props);
        cluster = Cluster.Builder.create(this, "Cluster")
                .vpc(vpc)
                .clusterName(inputs.sam().clusterName())
                .containerInsightsV2(ContainerInsights.ENHANCED)
                .build();
        Optional<IKey> resultsKey = inputs.resultsKmsKeyArn().map(arn -> Key.fromKeyArn(this, "ResultsKey", arn));
        for (TierSpec spec : inputs.tiers()) {
            String name = capitalized(spec.tier().wireName());
            TierService tier = new TierService(this, name + "Tier", new TierServiceProps(spec, vpc, cluster,
                    inputs.sam(), workerRepository, inputs.workerImageTag(), modelServerRepository, resultsKey));
            tiers.put(spec.tier(), tier);
            CfnOutput.Builder.create(this, name + "ServiceName").value(tier.getService().getServiceName()).build();
        }
        CfnOutput.Builder.create(this, "ClusterName").value(cluster.getClusterName()).build();
    }

    private static String capitalized(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    public Cluster getCluster() {
        return cluster;
    }

    public Map<Tier, TierService> getTiers() {
        return Map.copyOf(tiers);
    }
}
