package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import io.gpupipe.cdk.sizing.FractionalGpus;
import java.util.List;
import software.amazon.awscdk.Size;
import software.amazon.awscdk.services.ec2.AcceleratorManufacturer;
import software.amazon.awscdk.services.ec2.AcceleratorType;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.InstanceRequirementsConfig;
import software.amazon.awscdk.services.ec2.Peer;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ecs.CapacityOptionType;
import software.amazon.awscdk.services.ecs.CapacityProviderStrategy;
import software.amazon.awscdk.services.ecs.CfnCapacityProvider;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.Compatibility;
import software.amazon.awscdk.services.ecs.DeploymentCircuitBreaker;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.ecs.BaseService;
import software.amazon.awscdk.services.ecs.Ec2Service;
import software.amazon.awscdk.services.ecs.FargateService;
import software.amazon.awscdk.services.ecs.ManagedInstancesCapacityProvider;
import software.amazon.awscdk.services.ecs.NetworkMode;
import software.amazon.awscdk.services.ecs.PropagateManagedInstancesTags;
import software.amazon.awscdk.services.ecs.PropagatedTagSource;
import software.amazon.awscdk.services.ecs.TaskDefinition;
import software.constructs.Construct;

/**
 * One tier on the GPU side: its Managed Instances capacity provider (attribute-based NVIDIA selection, GPU auto
 * repair) or, with context {@code <tier>WarmPool=true}, an EC2 Auto Scaling group with a warm pool (see
 * {@link WarmPoolCapacity}), the task definition (model server + gpu-worker, see {@link TierTask}), the service
 * (desired 0, circuit breaker with rollback) and its scaling (see {@link TierScaling}). Refuses to build if the model
 * does not fit.
 */
public class TierService extends Construct {
    private final BaseService service;
    private final TierTask task;

    public TierService(Construct scope, String id, TierServiceProps props) {
        super(scope, id);
        TierSpec spec = props.spec();
        SizingGate.require(spec);
        spec.modelVersion(); // fails synthesis, readably, unless the tier's model revision is a pinned commit

        boolean warmPool = WarmPoolCapacity.enabled(this, spec);
        if (warmPool && spotEnabled(spec)) {
            throw new IllegalArgumentException("tier " + spec.tier().wireName() + ": -c " + spec.tier().wireName()
                    + "WarmPool=true and -c " + spec.tier().wireName() + "Spot=true exclude each other (EC2 Auto "
                    + "Scaling warm pools take no group that launches Spot instances)");
        }
        TaskDefinition taskDefinition = TaskDefinition.Builder.create(this, "TaskDefinition")
                .compatibility(warmPool ? Compatibility.EC2 : Compatibility.MANAGED_INSTANCES)
                .networkMode(NetworkMode.AWS_VPC)
                .cpu(Integer.toString(spec.taskCpu()))
                .memoryMiB(Integer.toString(spec.taskMemoryMiB()))
                .build();
        task = new TierTask(this, "Containers", taskDefinition, props);

        // Tasks sit in isolated subnets (no route out of the VPC): HTTPS to the VPC endpoints and the S3 gateway
        // endpoint is all they can send; the model server is on localhost inside the task, which no group filters.
        SecurityGroup taskSecurityGroup = SecurityGroup.Builder.create(this, "TaskSecurityGroup")
                .vpc(props.vpc())
                .description("gpupipe " + spec.tier().wireName() + " tasks: no inbound; outbound HTTPS only")
                .allowAllOutbound(false)
                .build();
        taskSecurityGroup.addEgressRule(Peer.anyIpv4(), Port.tcp(443), "HTTPS to VPC endpoints and S3 gateway");
        if (warmPool) {
            service = warmPoolService(spec, props, taskDefinition, taskSecurityGroup);
        } else {
            service = managedInstancesService(spec, props, taskDefinition, taskSecurityGroup);
        }
        new TierScaling(this, "Scaling", spec, props.sam(), props.cluster().getClusterName(), service);
    }

    /** The service on Managed Instances (On-Demand, and Spot after the first task with {@code <tier>Spot}). */
    private BaseService managedInstancesService(TierSpec spec, TierServiceProps props, TaskDefinition taskDefinition,
                                                SecurityGroup taskSecurityGroup) {
        ManagedInstancesCapacityProvider capacityProvider = capacityProvider(spec, props.vpc(), "Capacity",
                CapacityOptionType.ON_DEMAND);
        props.cluster().addManagedInstancesCapacityProvider(capacityProvider);
        List<CapacityProviderStrategy> strategy = List.of(CapacityProviderStrategy.builder()
                .capacityProvider(capacityProvider.getCapacityProviderName())
                .weight(1)
                .build());
        if (spotEnabled(spec)) {
            // Seed 004's mix: On-Demand base, Spot for the rest. ECS never swaps Spot for On-Demand by itself, so
            // the first task (the one a lone job waits for) always runs On-Demand and every further task on Spot.
            ManagedInstancesCapacityProvider spot = capacityProvider(spec, props.vpc(), "SpotCapacity",
                    CapacityOptionType.SPOT);
            props.cluster().addManagedInstancesCapacityProvider(spot);
            strategy = List.of(
                    CapacityProviderStrategy.builder().capacityProvider(capacityProvider.getCapacityProviderName())
                            .base(1).weight(0).build(),
                    CapacityProviderStrategy.builder().capacityProvider(spot.getCapacityProviderName())
                            .weight(1).build());
        }

        return FargateService.Builder.create(this, "Service")
                .cluster(props.cluster())
                .serviceName(props.sam().serviceName(spec.tier()))
                .taskDefinition(taskDefinition)
                .desiredCount(0)
                .capacityProviderStrategies(strategy)
                .circuitBreaker(DeploymentCircuitBreaker.builder().enable(true).rollback(true).build())
                .minHealthyPercent(100)
                .maxHealthyPercent(200)
                .vpcSubnets(NetworkStack.TASK_SUBNETS)
                .securityGroups(List.of(taskSecurityGroup))
                .assignPublicIp(false)
                .enableEcsManagedTags(true)
                .propagateTags(PropagatedTagSource.SERVICE)
                .build();
    }

    /** The service on the tier's warm-pool Auto Scaling group ({@link WarmPoolCapacity}). */
    private BaseService warmPoolService(TierSpec spec, TierServiceProps props, TaskDefinition taskDefinition,
                                        SecurityGroup taskSecurityGroup) {
        String serviceName = props.sam().serviceName(spec.tier());
        String registry = Fn.select(0, Fn.split("/", props.modelServerRepository().getRepositoryUri()));
        WarmPoolCapacity capacity = new WarmPoolCapacity(this, "WarmCapacity", spec, props.vpc(), props.cluster(),
                serviceName, Token.asNumber(props.sam().maxTasks(spec.tier())), instanceSecurityGroup(spec,
                props.vpc(), "WarmInstanceSecurityGroup"), new WarmPoolCapacity.Images(
                        props.modelServerRepository().repositoryUriForTag(task.getModelServerImageTag()),
                        props.workerRepository().repositoryUriForTag(props.workerImageTag()), registry));
        props.modelServerRepository().grantPull(capacity.getGroup().getRole());
        props.workerRepository().grantPull(capacity.getGroup().getRole());
        // The same service settings as the Managed Instances service above, on Ec2Service's builder: CDK's service
        // builders share no interface to set them through once.
        return Ec2Service.Builder.create(this, "Service")
                .cluster(props.cluster())
                .serviceName(serviceName)
                .taskDefinition(taskDefinition)
                .desiredCount(0)
                .capacityProviderStrategies(List.of(CapacityProviderStrategy.builder()
                        .capacityProvider(capacity.getCapacityProvider().getCapacityProviderName())
                        .weight(1)
                        .build()))
                .circuitBreaker(DeploymentCircuitBreaker.builder().enable(true).rollback(true).build())
                .minHealthyPercent(100)
                .maxHealthyPercent(200)
                .vpcSubnets(NetworkStack.TASK_SUBNETS)
                .securityGroups(List.of(taskSecurityGroup))
                .assignPublicIp(false)
                .enableEcsManagedTags(true)
                .propagateTags(PropagatedTagSource.SERVICE)
                .build();
    }

    /** Context {@code <tier>Spot=true} puts every task after the first on Spot capacity. */
    private boolean spotEnabled(TierSpec spec) {
        Object value = getNode().tryGetContext(spec.tier().wireName() + "Spot");
        return value != null && Boolean.parseBoolean(value.toString());
    }

    private ManagedInstancesCapacityProvider capacityProvider(TierSpec spec, IVpc vpc, String id,
                                                              CapacityOptionType option) {
        SecurityGroup instances = instanceSecurityGroup(spec, vpc, id.replace("Capacity", "InstanceSecurityGroup"));
        ManagedInstancesCapacityProvider provider = ManagedInstancesCapacityProvider.Builder.create(this, id)
                .capacityOptionType(option == CapacityOptionType.SPOT ? option : null)
                .subnets(vpc.selectSubnets(NetworkStack.INSTANCE_SUBNETS).getSubnets())
                .securityGroups(List.of(instances))
                .instanceRequirements(instanceRequirements(spec))
                .taskVolumeStorage(Size.gibibytes(spec.taskStorageGiB()))
                .propagateTags(PropagateManagedInstancesTags.CAPACITY_PROVIDER)
                .build();
        // GPU auto repair (DCGM health, XIDs 48/74/79/95/140): not yet a property of the L2 construct.
        CfnCapacityProvider cfn = (CfnCapacityProvider) provider.getNode().getDefaultChild();
        cfn.addPropertyOverride("ManagedInstancesProvider.AutoRepairConfiguration.ActionsStatus", "ENABLED");
        return provider;
    }

    /** Instances pull images and talk to ECS over HTTPS (endpoints, or the NAT gateway for what has none). */
    private SecurityGroup instanceSecurityGroup(TierSpec spec, IVpc vpc, String id) {
        SecurityGroup instances = SecurityGroup.Builder.create(this, id)
                .vpc(vpc)
                .description("gpupipe " + spec.tier().wireName() + " GPU instances: no inbound; outbound HTTPS only")
                .allowAllOutbound(false)
                .build();
        instances.addEgressRule(Peer.anyIpv4(), Port.tcp(443), "HTTPS to AWS (VPC endpoints, S3 gateway, NAT)");
        return instances;
    }

    /**
     * Whole GPUs: attribute-based NVIDIA selection by count and memory, among the tier's allowed instance types (G
     * families unless its model file says otherwise: attributes alone would also match P instances). A fraction: the G6f sizes whose slice is that
     * fraction and which have the task's vCPUs and memory ({@link FractionalGpus}); whole-GPU count and memory minima
     * would exclude them. A fractional tier no G6f size can hold fails synthesis: EC2 would never launch an instance.
     */
    static InstanceRequirementsConfig instanceRequirements(TierSpec spec) {
        InstanceRequirementsConfig.Builder requirements = InstanceRequirementsConfig.builder()
                .vCpuCountMin(instanceVcpuMin(spec))
                .memoryMin(Size.mebibytes(instanceMemoryMiBMin(spec)))
                .acceleratorManufacturers(List.of(AcceleratorManufacturer.NVIDIA))
                .acceleratorTypes(List.of(AcceleratorType.GPU));
        if (spec.gpuShare().isFractional()) {
            return requirements.allowedInstanceTypes(fractionalInstanceTypes(spec)).build();
        }
        return requirements.acceleratorCountMin(spec.gpuShare().devices())
                .acceleratorCountMax(spec.gpuShare().devices())
                .acceleratorTotalMemoryMin(Size.mebibytes(spec.acceleratorTotalMemoryMiB()))
                .allowedInstanceTypes(spec.allowedInstanceTypes())
                .build();
    }

    private static List<String> fractionalInstanceTypes(TierSpec spec) {
        List<FractionalGpus.G6fSize> fitting = FractionalGpus.sizesFitting(spec.gpuShare(), instanceVcpuMin(spec),
                instanceMemoryMiBMin(spec));
        if (fitting.isEmpty()) {
            throw new IllegalStateException("tier " + spec.tier().wireName() + ": GPU share "
                    + spec.gpuShare().ecsValue() + " runs only on " + String.join(", ", FractionalGpus.sizes(
                    spec.gpuShare()).stream().map(FractionalGpus.G6fSize::describe).toList()) + ", but the task needs "
                    + instanceVcpuMin(spec) + " vCPU and " + instanceMemoryMiBMin(spec) / 1024 + " GiB (its taskCpu "
                    + "and taskMemoryMiB plus the agent's share): lower them in tiers.json or ask for a larger share");
        }
        return fitting.stream().map(FractionalGpus.G6fSize::instanceType).toList();
    }

    /** The task's vCPUs plus one for the ECS agent and the OS. */
    static int instanceVcpuMin(TierSpec spec) {
        return (spec.taskCpu() + 1023) / 1024 + 1;
    }

    /** The task's memory plus 4 GiB for the ECS agent, the OS and the page cache. */
    static int instanceMemoryMiBMin(TierSpec spec) {
        return spec.taskMemoryMiB() + 4 * 1024;
    }

    public BaseService getService() {
        return service;
    }

    public TierTask getTask() {
        return task;
    }

    public Tier getTier() {
        return task.getTier();
    }
}
