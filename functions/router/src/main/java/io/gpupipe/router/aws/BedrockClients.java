package io.gpupipe.router.aws;

import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClientBuilder;

/**
 * Builds the Bedrock Runtime client of the classifier: one attempt, bounded by the configured timeout. Built by hand:
 * {@code quarkus-amazon-bedrockruntime} (in the 3.14.1 BOM) is not served by the registry this project builds from.
 */
public final class BedrockClients {
    private BedrockClients() {
    }

    /** Credentials come from the SDK's default chain (the Lambda role; system properties or env vars locally). */
    public static BedrockRuntimeClient create(ClientSettings config) {
        BedrockRuntimeClientBuilder builder = BedrockRuntimeClient.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(config.timeout())
                        .socketTimeout(config.timeout())
                        .build())
                .overrideConfiguration(o -> o.apiCallTimeout(config.timeout())
                        .retryStrategy(AwsRetryStrategy.doNotRetry()));
        config.region().map(Region::of).ifPresent(builder::region);
        config.endpointOverride().ifPresent(builder::endpointOverride);
        return builder.build();
    }
}
