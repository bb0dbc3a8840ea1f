package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class NetworkAndRegistryTest {
    private static Template network;
    private static Template registry;

    @BeforeAll
    static void synthesize() {
        network = SynthesizedApp.get().network;
        registry = SynthesizedApp.get().registry;
    }

    @Test
    void vpc_shouldRouteOutOnlyTheInstanceSubnets_throughOneNatGateway_whenSynthesized() {
        // then: tasks' subnets have no default route; instances' go through the NAT (public subnets host it only)
        network.resourceCountIs("AWS::EC2::NatGateway", 1);
        network.resourceCountIs("AWS::EC2::Subnet", 6);
        network.allResourcesProperties("AWS::EC2::Subnet", Match.objectLike(Map.of("MapPublicIpOnLaunch", false)));
        network.findResources("AWS::EC2::Route").forEach((id, route) -> {
            if (id.contains("tasks")) {
                assertThat(id).as("isolated task subnets have no route out").isNull();
            }
            if (id.contains("instances")) {
                assertThat(properties(route)).containsKey("NatGatewayId");
            }
        });
    }

    @Test
    void endpoints_shouldCoverImagesLogsQueuesAndEcs_whenSynthesized() {
        // when
        List<String> services = network.findResources("AWS::EC2::VPCEndpoint").values().stream()
                .map(e -> String.valueOf(properties(e).get("ServiceName")))
                .toList();

        // then
        assertThat(services).hasSize(9);
        for (String service : List.of(".s3", ".ecr.api", ".ecr.dkr", ".logs", ".sqs", ".ecs", ".ecs-agent",
                ".ecs-telemetry", ".monitoring")) {
            assertThat(services).as(service).anyMatch(s -> s.contains(service + "]"));
        }
        network.hasResourceProperties("AWS::EC2::VPCEndpoint", Match.objectLike(Map.of(
                "VpcEndpointType", "Gateway", "ServiceName", Match.anyValue())));
        network.resourcePropertiesCountIs("AWS::EC2::VPCEndpoint", Match.objectLike(Map.of(
                "VpcEndpointType", "Interface", "PrivateDnsEnabled", true)), 8);
    }

    @Test
    void repositories_shouldScanEncryptAndKeepTagsImmutable_whenSynthesized() {
        // then
        registry.resourceCountIs("AWS::ECR::Repository", 2);
        registry.allResourcesProperties("AWS::ECR::Repository", Match.objectLike(Map.of(
                "ImageScanningConfiguration", Map.of("ScanOnPush", true),
                "ImageTagMutability", "IMMUTABLE",
                "EncryptionConfiguration", Map.of("EncryptionType", "KMS"),
                "LifecyclePolicy", Match.objectLike(Map.of("LifecyclePolicyText", Match.stringLikeRegexp(
                        ".*untagged.*"))))));
        registry.allResources("AWS::ECR::Repository", Match.objectLike(Map.of("DeletionPolicy", "Retain")));
    }
}
