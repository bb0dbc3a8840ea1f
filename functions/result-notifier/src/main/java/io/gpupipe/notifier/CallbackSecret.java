package io.gpupipe.notifier;

import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.notifier.exception.NotifierAwsException;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The webhook signing key. The configuration is checked at startup (exactly one of {@code callback-secret} and
 * {@code callback-secret-arn}; the function fails to start otherwise). A secret given by ARN is fetched on the first
 * signed callback, once, and kept for the life of the execution environment: never at init, so with SnapStart it is
 * not part of the snapshot; a failed fetch is not cached (the record fails, retryable as the SDK error says, and the
 * next callback tries again).
 *
 * <p>Rotation: warm environments keep signing with the value they fetched until Lambda recycles them (no fixed
 * bound, typically minutes to hours). After changing the secret, update the function's configuration or publish a
 * new version to start fresh environments, and let receivers accept the previous key until then.
 */
@ApplicationScoped
@Startup
public class CallbackSecret {
    private final CallbackSecretSetting setting;
    private final SecretReader reader;
    private volatile String value;

    @Inject
    CallbackSecret(NotifierConfig config, SecretReader reader) {
        this(CallbackSecretSetting.of(config.callbackSecret(), config.callbackSecretArn()), reader);
    }

    CallbackSecret(CallbackSecretSetting setting, SecretReader reader) {
        this.setting = setting;
        this.reader = reader;
        if (setting instanceof CallbackSecretSetting.Plain) {
            String plain = ((CallbackSecretSetting.Plain) setting).value();
            try {
                CallbackKey.of(plain);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(CallbackSecretSetting.PLAIN_KEY + ": " + e.getMessage(), e);
            }
            this.value = plain;
        }
    }

    /**
     * The key, fetched on first use when configured by ARN.
     *
     * @throws NotifierAwsException when the secret cannot be read, or is not a usable key (a {@code whsec_} value whose
     *     rest is not base64)
     */
    public String value() {
        String current = value;
        if (current != null) {
            return current;
        }
        synchronized (this) {
            if (value == null) {
                String arn = ((CallbackSecretSetting.SecretArn) setting).arn();
                String read = reader.read(arn);
                try {
                    CallbackKey.of(read);
                } catch (IllegalArgumentException e) {
                    throw new NotifierAwsException("the callback secret " + arn + " is not a usable key: "
                            + e.getMessage(), false, null);
                }
                value = read;
            }
            return value;
        }
    }
}
