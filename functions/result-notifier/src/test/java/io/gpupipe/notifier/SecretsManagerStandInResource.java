package io.gpupipe.notifier;

import io.gpupipe.localaws.LocalAws;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Quarkus test resource: a {@link SecretsManagerStandIn} holding {@link #SECRET_VALUE} under {@link #SECRET_ARN},
 * and the notifier configured to read its signing key from there (the plain test key unset). Test fields of type
 * SecretsManagerStandIn receive it.
 */
public class SecretsManagerStandInResource implements QuarkusTestResourceLifecycleManager {
    static final String SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:gpupipe-callback-AbC123";
    static final String SECRET_VALUE = "fetched-from-secrets-manager-7f3a9c";

    private SecretsManagerStandIn standIn;

    @Override
    public Map<String, String> start() {
        try {
            standIn = new SecretsManagerStandIn();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        standIn.putSecret(SECRET_ARN, SECRET_VALUE);
        // an empty value unsets the %test plain key of application.properties
        return Map.of("quarkus.secretsmanager.endpoint-override", standIn.endpoint().toString(),
                "quarkus.secretsmanager.aws.region", LocalAws.REGION,
                "quarkus.secretsmanager.aws.credentials.type", "static",
                "quarkus.secretsmanager.aws.credentials.static-provider.access-key-id", LocalAws.ACCESS_KEY,
                "quarkus.secretsmanager.aws.credentials.static-provider.secret-access-key", LocalAws.SECRET_KEY,
                "gpupipe.notifier.callback-secret-arn", SECRET_ARN,
                "gpupipe.notifier.callback-secret", "",
                "%test.gpupipe.notifier.callback-secret", "");
    }

    @Override
    public void inject(TestInjector testInjector) {
        testInjector.injectIntoFields(standIn, new TestInjector.MatchesType(SecretsManagerStandIn.class));
    }

    @Override
    public void stop() {
        if (standIn != null) {
            standIn.close();
        }
    }
}
