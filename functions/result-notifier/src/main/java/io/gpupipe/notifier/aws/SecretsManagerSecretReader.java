package io.gpupipe.notifier.aws;

import io.gpupipe.notifier.SecretReader;
import io.gpupipe.notifier.exception.NotifierAwsException;
import jakarta.enterprise.context.ApplicationScoped;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;

/**
 * {@link SecretReader} on Secrets Manager GetSecretValue (current version). Application-scoped, so neither it nor its
 * client is built unless a secret ARN is configured and read.
 */
@ApplicationScoped
public class SecretsManagerSecretReader implements SecretReader {
    private final SecretsManagerClient secrets;

    public SecretsManagerSecretReader(SecretsManagerClient secrets) {
        this.secrets = secrets;
    }

    @Override
    public String read(String secretArn) {
        GetSecretValueResponse response;
        try {
            response = secrets.getSecretValue(b -> b.secretId(secretArn));
        } catch (SdkException e) {
            throw AwsErrors.translate("reading the callback secret " + secretArn, e);
        }
        String value = response.secretString();
        if (value == null || value.isEmpty()) {
            throw new NotifierAwsException("the callback secret " + secretArn + " has no SecretString", false, null);
        }
        return value;
    }
}
