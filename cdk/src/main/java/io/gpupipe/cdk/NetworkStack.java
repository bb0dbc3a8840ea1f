package io.gpupipe.cdk;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.constructs.Construct;

/**
 * The network (changes rarely). Two kinds of private subnet, no public IPs on either:
 * <ul>
 * <li>{@code tasks} (isolated): the tasks' ENIs. No route out of the VPC; AWS is reached through the VPC
 * endpoints below (SQS, S3 gateway, logs, metrics).</li>
 * <li>{@code instances} (private with egress through one NAT gateway): the Managed Instances. AWS documents no
 * endpoint-only path for them: "The VPC subnets where managed instances are launched. If your subnets don't provide
 * public IP addresses, they must have a NAT gateway for outbound internet access." (AWS Batch API,
 * ManagedInstancesNetworkConfiguration, docs.aws.amazon.com/batch/latest/APIReference/
 * API_ManagedInstancesNetworkConfiguration.html; the ECS docs list interface endpoints only for the EC2 and
 * Fargate launch types). The endpoints still carry the heavy traffic (image layers via the S3 gateway, ECR, ECS),
 * so the NAT sees only what has no endpoint.</li>
 * </ul>
 */
public class NetworkStack extends Stack {
    /** Interface endpoints: image pulls, logs, the job queues, and the ECS control plane for Managed Instances. */
    static final Map<String, InterfaceVpcEndpointAwsService> INTERFACE_ENDPOINTS = Map.of(
            "EcrApi", InterfaceVpcEndpointAwsService.ECR,
            "EcrDocker", InterfaceVpcEndpointAwsService.ECR_DOCKER,
            "Logs", InterfaceVpcEndpointAwsService.CLOUDWATCH_LOGS,
            "Sqs", InterfaceVpcEndpointAwsService.SQS,
            "Ecs", InterfaceVpcEndpointAwsService.ECS,
            "EcsAgent", InterfaceVpcEndpointAwsService.ECS_AGENT,
            "EcsTelemetry", InterfaceVpcEndpointAwsService.ECS_TELEMETRY,
            "Monitoring", InterfaceVpcEndpointAwsService.CLOUDWATCH_MONITORING);

    /** Where the tasks' ENIs go: no route out of the VPC. */
    static final SubnetSelection TASK_SUBNETS = SubnetSelection.builder()
            .subnetType(SubnetType.PRIVATE_ISOLATED).build();
    /** Where Managed Instances launch: out through the NAT gateway for what has no VPC endpoint. */
    static final SubnetSelection INSTANCE_SUBNETS = SubnetSelection.builder()
            .subnetType(SubnetType.PRIVATE_WITH_EGRESS).build();

    private final Vpc vpc;

    public NetworkStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        vpc = Vpc.Builder.create(this, "Vpc")
                .maxAzs(2)
                .natGateways(1)
                .subnetConfiguration(List.of(
                        SubnetConfiguration.builder().name("nat").subnetType(SubnetType.PUBLIC).cidrMask(26)
                                .mapPublicIpOnLaunch(false).build(),
                        SubnetConfiguration.builder().name("instances").subnetType(SubnetType.PRIVATE_WITH_EGRESS)
                                .cidrMask(22).build(),
                        SubnetConfiguration.builder().name("tasks").subnetType(SubnetType.PRIVATE_ISOLATED)
                                .cidrMask(20).build()))
                .build();
        SubnetSelection isolated = TASK_SUBNETS;
        // S3 is a gateway endpoint (free): results, and the layers of every ECR image, from both subnet kinds.
        vpc.addGatewayEndpoint("S3", GatewayVpcEndpointOptions.builder()
                .service(GatewayVpcEndpointAwsService.S3)
                .subnets(List.of(TASK_SUBNETS, INSTANCE_SUBNETS))
                .build());
        INTERFACE_ENDPOINTS.forEach((name, service) -> vpc.addInterfaceEndpoint(name,
                InterfaceVpcEndpointOptions.builder()
                        .service(service)
                        .privateDnsEnabled(true)
                        .subnets(isolated)
                        .build()));
    }

    public IVpc getVpc() {
        return vpc;
    }
}
