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
 * The network (changes rarely): a VPC with isolated private subnets only (no internet or NAT gateway, so no public
 * IPs and no route out) and the VPC endpoints the GPU instances and tasks need to reach AWS.
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

    private final Vpc vpc;

    public NetworkStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        vpc = Vpc.Builder.create(this, "Vpc")
                .maxAzs(2)
                .natGateways(0)
                .createInternetGateway(false)
                .subnetConfiguration(List.of(SubnetConfiguration.builder()
                        .name("gpu")
                        .subnetType(SubnetType.PRIVATE_ISOLATED)
                        .cidrMask(20)
                        .build()))
                .build();
        SubnetSelection isolated = SubnetSelection.builder().subnetType(SubnetType.PRIVATE_ISOLATED).build();
        // S3 is a gateway endpoint (free): results, and the layers of every ECR image.
        vpc.addGatewayEndpoint("S3", GatewayVpcEndpointOptions.builder()
                .service(GatewayVpcEndpointAwsService.S3)
                .subnets(List.of(isolated))
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
