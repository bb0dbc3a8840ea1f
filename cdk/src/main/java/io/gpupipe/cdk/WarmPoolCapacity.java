package io.gpupipe.cdk;

import io.gpupipe.model.scaling.WarmCapacity;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.autoscaling.AutoScalingGroup;
import software.amazon.awscdk.services.autoscaling.DefaultResult;
import software.amazon.awscdk.services.autoscaling.LifecycleHookProps;
import software.amazon.awscdk.services.autoscaling.LifecycleTransition;
import software.amazon.awscdk.services.autoscaling.PoolState;
import software.amazon.awscdk.services.autoscaling.WarmPoolOptions;
import software.amazon.awscdk.services.ec2.BlockDevice;
import software.amazon.awscdk.services.ec2.BlockDeviceVolume;
import software.amazon.awscdk.services.ec2.EbsDeviceOptions;
import software.amazon.awscdk.services.ec2.EbsDeviceVolumeType;
import software.amazon.awscdk.services.ec2.ISecurityGroup;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.InstanceType;
import software.amazon.awscdk.services.ec2.LaunchTemplate;
import software.amazon.awscdk.services.ec2.UserData;
import software.amazon.awscdk.services.ecs.AmiHardwareType;
import software.amazon.awscdk.services.ecs.AsgCapacityProvider;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.EcsOptimizedImage;
import software.amazon.awscdk.services.ecs.MachineImageType;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.constructs.Construct;

/**
 * Pre-warmed capacity for a tier (context {@code <tier>WarmPool=true} with {@code <tier>InstanceType}): ECS Managed
 * Instances cannot keep stopped instances (its only idle setting, InfrastructureOptimization.scaleInAfter, keeps
 * idle instances running and billed for up to 3,600 s), so the tier runs on an EC2 Auto Scaling group capacity
 * provider instead, whose warm pool keeps stopped instances that already pulled the tier's images (ECS developer
 * guide, "Configuring pre-initialized instances for your Amazon ECS Auto Scaling group"):
 * <ul>
 *   <li>the ECS GPU-optimized Amazon Linux 2023 AMI, {@code ECS_WARM_POOLS_CHECK=true} so the agent does not
 *   register an instance while it is being prepared, {@code ECS_IMAGE_PULL_BEHAVIOR=prefer-cached} so a task uses the
 *   pre-pulled images;</li>
 *   <li>a launch lifecycle hook, completed by a per-boot script: in the warm pool it pulls the images first; entering
 *   service it completes at once (the hook runs on both transitions);</li>
 *   <li>a warm pool of {@code <tier>WarmPoolSize} (default 1) stopped instances; ECS forbids ReuseOnScaleIn, so
 *   every scale-in refills it with a new instance;</li>
 *   <li>managed scaling and termination protection (instances with tasks are never terminated); the scaling
 *   function sets the group's desired capacity on a wake and lowers it with the service (shared-model
 *   {@link WarmCapacity}), so a stopped-to-running start needs no managed-scaling alarm and an idle instance stops
 *   within a minute, not after managed scaling's 15-minute scale-in.</li>
 * </ul>
 * The group is named {@link WarmCapacity#groupName} of the tier's service. No Managed Instances fee applies.
 */
public class WarmPoolCapacity extends Construct {
    static final String LIFECYCLE_HOOK = "gpupipe-prepare";
    /** Longest preparation (an image pull of tens of GiB at the volume's write rate): then the hook continues. */
    static final Duration PREPARE_TIMEOUT = Duration.minutes(30);

    private final AutoScalingGroup group;
    private final AsgCapacityProvider capacityProvider;

    /** What the group pulls into its warm instances: the task's two images. */
    public record Images(String modelServer, String worker, String registry) {
    }

    public WarmPoolCapacity(Construct scope, String id, TierSpec spec, IVpc vpc, Cluster cluster, String serviceName,
                            Number maxInstances, ISecurityGroup securityGroup, Images images) {
        super(scope, id);
        String instanceType = context(spec.tier().wireName() + "InstanceType");
        if (!spec.allowsInstanceType(instanceType)) {
            throw new IllegalArgumentException("-c " + spec.tier().wireName() + "InstanceType=" + instanceType
                    + " is none of the tier's allowed instance types " + spec.allowedInstanceTypes()
                    + " (INSTANCE_TYPES in native-build/models/" + spec.tier().wireName() + ".env)");
        }
        int poolSize = Integer.parseInt(contextOr(spec.tier().wireName() + "WarmPoolSize", "1"));
        Role instanceRole = Role.Builder.create(this, "InstanceRole")
                .assumedBy(new ServicePrincipal("ec2.amazonaws.com"))
                .managedPolicies(List.of(ManagedPolicy.fromAwsManagedPolicyName(
                        "service-role/AmazonEC2ContainerServiceforEC2Role")))
                .build();
        String groupName = WarmCapacity.groupName(serviceName);
        UserData userData = UserData.forLinux();
        LaunchTemplate template = LaunchTemplate.Builder.create(this, "LaunchTemplate")
                .instanceType(new InstanceType(instanceType))
                .machineImage(EcsOptimizedImage.amazonLinux2023(AmiHardwareType.GPU))
                .role(instanceRole)
                .securityGroup(securityGroup)
                .userData(userData)
                .requireImdsv2(true)
                .blockDevices(List.of(BlockDevice.builder()
                        .deviceName("/dev/xvda")
                        .volume(BlockDeviceVolume.ebs(spec.taskStorageGiB(), EbsDeviceOptions.builder()
                                .volumeType(EbsDeviceVolumeType.GP3).encrypted(true).build()))
                        .build()))
                .build();
        group = AutoScalingGroup.Builder.create(this, "Group")
                .autoScalingGroupName(groupName)
                .vpc(vpc)
                .vpcSubnets(NetworkStack.INSTANCE_SUBNETS)
                .launchTemplate(template)
                .minCapacity(0)
                .maxCapacity(maxInstances)
                .newInstancesProtectedFromScaleIn(true)
                .build();
        group.addWarmPool(WarmPoolOptions.builder()
                .poolState(PoolState.STOPPED)
                .maxGroupPreparedCapacity(poolSize)
                .minSize(0)
                .reuseOnScaleIn(false)
                .build());
        group.addLifecycleHook("Prepare", LifecycleHookProps.builder()
                .autoScalingGroup(group)
                .lifecycleHookName(LIFECYCLE_HOOK)
                .lifecycleTransition(LifecycleTransition.INSTANCE_LAUNCHING)
                .defaultResult(DefaultResult.CONTINUE)
                .heartbeatTimeout(PREPARE_TIMEOUT)
                .build());
        instanceRole.addToPolicy(PolicyStatement.Builder.create()
                .actions(List.of("autoscaling:CompleteLifecycleAction"))
                .resources(List.of(Stack.of(this).formatArn(software.amazon.awscdk.ArnComponents.builder()
                        .service("autoscaling")
                        .resource("autoScalingGroup")
                        .resourceName("*:autoScalingGroupName/" + groupName)
                        .arnFormat(software.amazon.awscdk.ArnFormat.COLON_RESOURCE_NAME)
                        .build())))
                .build());
        capacityProvider = AsgCapacityProvider.Builder.create(this, "Provider")
                .autoScalingGroup(group)
                .machineImageType(MachineImageType.AMAZON_LINUX_2)
                .enableManagedScaling(true)
                .enableManagedTerminationProtection(true)
                .targetCapacityPercent(100)
                .build();
        cluster.addAsgCapacityProvider(capacityProvider);
        userData.addCommands(prepareScript(groupName, images));
    }

    /**
     * Appended to the ECS agent's configuration that {@code addAsgCapacityProvider} writes, then installed as a
     * per-boot script and run: in the warm pool (IMDS target lifecycle state {@code Warmed:*}) it pulls the images,
     * and on every boot it completes the launch hook.
     */
    static String prepareScript(String groupName, Images images) {
        return Fn.join("\n", List.of(
                "cat >> /etc/ecs/ecs.config <<'EOF'",
                "ECS_WARM_POOLS_CHECK=true",
                "ECS_IMAGE_PULL_BEHAVIOR=prefer-cached",
                "ECS_ENABLE_GPU_SUPPORT=true",
                "EOF",
                "cat > /var/lib/cloud/scripts/per-boot/gpupipe-warm-pool.sh <<'EOF'",
                "#!/bin/bash",
                "set -u",
                "imds() { curl -sf -H \"X-aws-ec2-metadata-token: $TOKEN\" http://169.254.169.254/latest/$1; }",
                "TOKEN=$(curl -sf -X PUT http://169.254.169.254/latest/api/token "
                        + "-H 'X-aws-ec2-metadata-token-ttl-seconds: 300')",
                "ID=$(imds meta-data/instance-id)",
                "REGION=$(imds meta-data/placement/region)",
                "STATE=$(imds meta-data/autoscaling/target-lifecycle-state)",
                "if [[ \"$STATE\" == Warmed:* ]]; then",
                "  aws ecr get-login-password --region \"$REGION\" | docker login --username AWS --password-stdin "
                        + images.registry(),
                "  docker pull " + images.modelServer() + " && docker pull " + images.worker(),
                "fi",
                "aws autoscaling complete-lifecycle-action --region \"$REGION\" --instance-id \"$ID\" "
                        + "--auto-scaling-group-name " + groupName + " --lifecycle-hook-name " + LIFECYCLE_HOOK
                        + " --lifecycle-action-result CONTINUE",
                "EOF",
                "chmod +x /var/lib/cloud/scripts/per-boot/gpupipe-warm-pool.sh",
                "/var/lib/cloud/scripts/per-boot/gpupipe-warm-pool.sh"));
    }

    private String context(String key) {
        Object value = getNode().tryGetContext(key);
        if (value == null || value.toString().isBlank()) {
            throw new IllegalArgumentException("a warm pool needs one instance type (EC2 Auto Scaling warm pools take "
                    + "no mixed-instances policy): pass -c " + key + "=<type>, e.g. g6e.xlarge");
        }
        return value.toString();
    }

    private String contextOr(String key, String fallback) {
        Object value = getNode().tryGetContext(key);
        return value == null || value.toString().isBlank() ? fallback : value.toString();
    }

    public AutoScalingGroup getGroup() {
        return group;
    }

    public AsgCapacityProvider getCapacityProvider() {
        return capacityProvider;
    }

    static boolean enabled(Construct scope, TierSpec spec) {
        Object value = scope.getNode().tryGetContext(spec.tier().wireName() + "WarmPool");
        return value != null && Boolean.parseBoolean(value.toString());
    }
}
