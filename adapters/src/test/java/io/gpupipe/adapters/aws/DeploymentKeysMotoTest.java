package io.gpupipe.adapters.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.CallerOwners;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.seal.MessageSeal;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;

/**
 * The deployment key read from Secrets Manager as the components read it, judged by moto (an independent
 * implementation of the Secrets Manager API, including its version stages): the current version seals, and after a
 * rotation the previous one still verifies. Skipped when moto is not installed ({@code pip install 'moto[server]'}).
 */
class DeploymentKeysMotoTest {
    private static final String KEY_V1 = "first-deployment-key-".repeat(3);
    private static final String KEY_V2 = "second-deployment-key-".repeat(3);
    private static final String BODY = "{\"requestId\":\"550e8400-e29b-41d4-a716-446655440000\",\"prompt\":\"hi\"}";
    private static Process moto;
    private static SecretsManagerClient secrets;

    @BeforeAll
    static void startMoto() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try {
            moto = new ProcessBuilder("moto_server", "-p", Integer.toString(port)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("moto is not installed (moto_server not on the PATH: pip install 'moto[server]'); "
                    + "the Secrets Manager adapter is not judged");
        }
        int bound = port;
        await("moto on port " + port).atMost(Duration.ofSeconds(60)).until(() -> listening(bound));
        secrets = SecretsManagerClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    @AfterAll
    static void stopMoto() {
        if (secrets != null) {
            secrets.close();
        }
        if (moto != null) {
            moto.destroy();
        }
    }

    @Test
    void fromSecret_shouldSealWithTheCurrentVersion_andVerifyThePreviousOne_afterARotation() {
        // given: a secret as the template creates it
        String arn = secrets.createSecret(b -> b.name("gpupipe-deployment-key").secretString(KEY_V1)).arn();
        MessageSeal before = DeploymentKeys.fromSecret(secrets, arn).seal();
        assertThat(before.seal(BODY)).isEqualTo(MessageSeal.of(DeploymentKey.of(KEY_V1)).seal(BODY));
        assertThat(before.verifies(BODY, MessageSeal.of(DeploymentKey.of(KEY_V2)).seal(BODY))).isFalse();

        // when: rotated (a new current version; Secrets Manager labels the old one AWSPREVIOUS)
        secrets.putSecretValue(b -> b.secretId(arn).secretString(KEY_V2));
        MessageSeal after = DeploymentKeys.fromSecret(secrets, arn).seal();

        // then
        assertThat(after.seal(BODY)).isEqualTo(MessageSeal.of(DeploymentKey.of(KEY_V2)).seal(BODY));
        assertThat(after.verifies(BODY, before.seal(BODY))).isTrue();
    }

    @Test
    void fromSecret_shouldDeriveOwnersWithTheCurrentVersion_andStillKnowThePreviousOnesIds_afterARotation() {
        // given: a caller's owner id under the template's first key
        CallerIdentity caller = new CallerIdentity.Jwt("https://issuer.example.com", "user-1");
        String arn = secrets.createSecret(b -> b.name("gpupipe-owner-ids").secretString(KEY_V1)).arn();
        Owner before = DeploymentKeys.fromSecret(secrets, arn).ownerIds(false).of(caller).current();

        // when: rotated
        secrets.putSecretValue(b -> b.secretId(arn).secretString(KEY_V2));
        CallerOwners after = DeploymentKeys.fromSecret(secrets, arn).ownerIds(false).of(caller);

        // then: a new id, no one's without the key; the old one still the caller's
        assertThat(before).isEqualTo(DeploymentKey.of(KEY_V1).ownerIds().of(caller));
        assertThat(after.current()).isEqualTo(DeploymentKey.of(KEY_V2).ownerIds().of(caller)).isNotEqualTo(before);
        assertThat(after.earlier()).containsExactly(before);
        assertThat(after.all()).doesNotContain(OwnerIds.UNKEYED.of(caller));
    }

    @Test
    void fromSecret_shouldFail_whenTheSecretDoesNotExist() {
        assertThatThrownBy(() -> DeploymentKeys.fromSecret(secrets, "no-such-secret"))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
