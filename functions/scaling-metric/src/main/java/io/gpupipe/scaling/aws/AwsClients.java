package io.gpupipe.scaling.aws;

import io.gpupipe.scaling.ScalingConfig;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.AutoScalingClientBuilder;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClientBuilder;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.EcsClientBuilder;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The plain SDK clients for ECS, CloudWatch and EC2 Auto Scaling: quarkus-amazon-services has no ECS extension, and its CloudWatch
 * extension ({@code quarkus-amazon-cloudwatch}, in the 3.14.1 BOM) is not served by the registry this project builds
 * from (see the parent pom). Region and credentials from the SDK's default chains (AWS_REGION and the function's role
 * in Lambda), endpoint from configuration for local runs, URL-connection HTTP client like the Quarkus-managed SQS
 * client.
 */
public class AwsClients {
    @Produces
    @Singleton
    EcsClient ecs(ScalingConfig config, SqsClient sqs) {
        EcsClientBuilder builder = EcsClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(sameTimeLimits(sqs));
        config.ecsEndpointOverride().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    @Produces
    @Singleton
    CloudWatchClient cloudWatch(ScalingConfig config, SqsClient sqs) {
        CloudWatchClientBuilder builder = CloudWatchClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(sameTimeLimits(sqs));
        config.cloudwatchEndpointOverride().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    @Produces
    @Singleton
    AutoScalingClient autoScaling(ScalingConfig config, SqsClient sqs) {
        AutoScalingClientBuilder builder = AutoScalingClient.builder().httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(sameTimeLimits(sqs));
        config.autoscalingEndpointOverride().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    void closeAutoScaling(@Disposes AutoScalingClient client) {
        client.close();
    }

    /** The API-call time limits configured for the Quarkus-managed SQS client ({@code quarkus.sqs.api-call-*}). */
    static ClientOverrideConfiguration sameTimeLimits(SqsClient sqs) {
        ClientOverrideConfiguration configured = sqs.serviceClientConfiguration().overrideConfiguration();
        ClientOverrideConfiguration.Builder limits = ClientOverrideConfiguration.builder();
        configured.apiCallTimeout().ifPresent(limits::apiCallTimeout);
        configured.apiCallAttemptTimeout().ifPresent(limits::apiCallAttemptTimeout);
        return limits.build();
    }

    void closeEcs(@Disposes EcsClient client) {
        client.close();
    }

    void closeCloudWatch(@Disposes CloudWatchClient client) {
        client.close();
    }
}
