package io.gpupipe.notifier.aws;

import io.gpupipe.notifier.NotifierConfig;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClientBuilder;
import software.amazon.awssdk.services.sns.SnsClient;

/**
 * The plain SDK Secrets Manager client: region and credentials from the SDK's default chains (AWS_REGION and the
 * function's role in Lambda), endpoint from {@code gpupipe.notifier.secretsmanager-endpoint-override} for tests,
 * URL-connection HTTP client like the Quarkus-managed S3 and SNS clients.
 */
public class SecretsManagerClientProducer {
    @Produces
    @Singleton
    SecretsManagerClient secretsManager(NotifierConfig config, SnsClient sns) {
        // the API-call time limits configured for the Quarkus-managed SNS client (quarkus.sns.api-call-*)
        ClientOverrideConfiguration configured = sns.serviceClientConfiguration().overrideConfiguration();
        ClientOverrideConfiguration.Builder limits = ClientOverrideConfiguration.builder();
        configured.apiCallTimeout().ifPresent(limits::apiCallTimeout);
        configured.apiCallAttemptTimeout().ifPresent(limits::apiCallAttemptTimeout);
        SecretsManagerClientBuilder builder = SecretsManagerClient.builder()
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(limits.build());
        config.secretsmanagerEndpointOverride().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    void close(@Disposes SecretsManagerClient client) {
        client.close();
    }
}
