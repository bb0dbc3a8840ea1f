package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CfnParameter;
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

    /**
     * Inputs besides the other stacks. {@code workerImageTag}: the {@code -c workerImageTag} context; without it, the
     * tag is read at deploy time from the SSM parameter {@link #workerImageTagParameter} names, which the image step
     * writes when it pushes (docs/deploy.md), so a redeploy without the context keeps the pushed tag. There is no
     * built-in default: a missing parameter fails the deploy with CloudFormation's "Unable to fetch parameters" naming
     * it, never a tag nobody pushed.
     */
    public record Inputs(SamExports sam, List<TierSpec> tiers, Optional<String> workerImageTag,
                         Optional<String> resultsKmsKeyArn) {
        public Inputs {
            tiers = List.copyOf(tiers);
        }
    }

    /** The SSM parameter holding the gpu-worker image tag the image step pushed for SAM stack {@code samStack}. */
    public static String workerImageTagParameter(String samStack) {
        return "/gpupipe/" + samStack + "/worker-image-tag";
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
        String workerImageTag = inputs.workerImageTag().orElseGet(() -> CfnParameter.Builder.create(this,
                        "WorkerImageTag")
                .type("AWS::SSM::Parameter::Value<String>")
                .defaultValue(workerImageTagParameter(inputs.sam().samStackName()))
                .description("SSM parameter holding the gpu-worker image tag pushed to the registry (written by the "
                        + "image step, docs/deploy.md; -c workerImageTag overrides it)")
                .build().getValueAsString());
        for (TierSpec spec : inputs.tiers()) {
            String name = capitalized(spec.tier().wireName());
            TierService tier = new TierService(this, name + "Tier", new TierServiceProps(spec, vpc, cluster,
                    inputs.sam(), workerRepository, workerImageTag, modelServerRepository, resultsKey));
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
