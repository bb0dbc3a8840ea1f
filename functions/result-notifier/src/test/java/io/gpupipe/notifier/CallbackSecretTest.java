package io.gpupipe.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.notifier.aws.SecretsManagerSecretReader;
import io.gpupipe.notifier.exception.NotifierAwsException;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/** {@link CallbackSecret} over the real SDK client and the Secrets Manager stand-in. */
class CallbackSecretTest {
    private static final String ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:gpupipe-callback-Zz9Yy8";

    private SecretsManagerStandIn standIn;
    private SecretsManagerClient client;
    private SecretReader reader;

    @BeforeEach
    void start() throws IOException {
        standIn = new SecretsManagerStandIn();
        client = SecretsManagerClient.builder().httpClient(UrlConnectionHttpClient.create())
                .endpointOverride(standIn.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
        reader = new SecretsManagerSecretReader(client);
    }

    @AfterEach
    void stop() {
        client.close();
        standIn.close();
    }

    @Test
    void value_shouldFetchOnFirstUseAndKeepIt_whenConfiguredByArn() {
        // given
        standIn.putSecret(ARN, "first-value");
        CallbackSecret secret = new CallbackSecret(new CallbackSecretSetting.SecretArn(ARN), reader);
        assertThat(standIn.requests()).isEmpty();

        // when
        String first = secret.value();
        standIn.putSecret(ARN, "rotated-value");
        String second = secret.value();

        // then: one GetSecretValue; a rotation is not seen by this container
        assertThat(first).isEqualTo("first-value");
        assertThat(second).isEqualTo("first-value");
        assertThat(standIn.requests()).singleElement()
                .satisfies(r -> assertThat(r.body().get("SecretId").asText()).isEqualTo(ARN));
    }

    @Test
    void value_shouldFailNonRetryablyAndNotCacheTheFailure_whenSecretIsMissing() {
        // given
        CallbackSecret secret = new CallbackSecret(new CallbackSecretSetting.SecretArn(ARN), reader);

        // when / then
        assertThatThrownBy(secret::value).isInstanceOf(NotifierAwsException.class)
                .hasMessageContaining(ARN).hasMessageContaining("can't find the specified secret")
                .satisfies(e -> assertThat(((NotifierAwsException) e).retryable()).isFalse());
        standIn.putSecret(ARN, "now-there");
        assertThat(secret.value()).isEqualTo("now-there");
        assertThat(standIn.requests()).hasSize(2);
    }

    @Test
    void value_shouldFailNonRetryably_whenTheStoredSecretIsAWhsecValueThatIsNotBase64() {
        // given: someone stored a Standard Webhooks secret by hand, mangled
        standIn.putSecret(ARN, "whsec_not base64!");
        CallbackSecret secret = new CallbackSecret(new CallbackSecretSetting.SecretArn(ARN), reader);

        // when / then: the record fails (nothing is signed with a wrong key), saying why
        assertThatThrownBy(secret::value).isInstanceOf(NotifierAwsException.class)
                .hasMessageContaining(ARN).hasMessageContaining("base64")
                .satisfies(e -> assertThat(((NotifierAwsException) e).retryable()).isFalse());
    }

    @Test
    void constructor_shouldRefuse_whenThePlainValueIsAWhsecValueThatIsNotBase64() {
        assertThatThrownBy(() -> new CallbackSecret(new CallbackSecretSetting.Plain("whsec_%%%"), reader))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gpupipe.notifier.callback-secret").hasMessageContaining("base64");
    }

    @Test
    void value_shouldNeverCallSecretsManager_whenPlainValueConfigured() {
        // when
        String value = new CallbackSecret(new CallbackSecretSetting.Plain("local-key"), reader).value();

        // then
        assertThat(value).isEqualTo("local-key");
        assertThat(standIn.requests()).isEmpty();
    }
}
