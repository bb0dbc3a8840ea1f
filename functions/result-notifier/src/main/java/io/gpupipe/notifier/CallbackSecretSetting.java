package io.gpupipe.notifier;

import java.util.Optional;

/** Where the webhook signing key comes from: exactly one of a plain value and a Secrets Manager secret ARN. */
public sealed interface CallbackSecretSetting {
    String PLAIN_KEY = "gpupipe.notifier.callback-secret";
    String ARN_KEY = "gpupipe.notifier.callback-secret-arn";

    /** The key itself (local stack, tests). */
    record Plain(String value) implements CallbackSecretSetting {
        @Override
        public String toString() {
            return "Plain[value=***]";
        }
    }

    /** The ARN of a Secrets Manager secret whose SecretString is the key (AWS). */
    record SecretArn(String arn) implements CallbackSecretSetting {
    }

    /**
     * The setting for the two optional properties (blank counts as unset).
     *
     * @throws IllegalStateException unless exactly one is set, or when the ARN is not a Secrets Manager secret ARN
     */
    static CallbackSecretSetting of(Optional<String> plain, Optional<String> arn) {
        Optional<String> value = plain.filter(v -> !v.isBlank());
        Optional<String> secretArn = arn.map(String::strip).filter(v -> !v.isEmpty());
        if (value.isPresent() && secretArn.isPresent()) {
            throw new IllegalStateException("Both " + PLAIN_KEY + " (GPUPIPE_NOTIFIER_CALLBACK_SECRET) and " + ARN_KEY
                    + " (GPUPIPE_NOTIFIER_CALLBACK_SECRET_ARN) are set: set exactly one (the ARN in AWS, the plain"
                    + " value only for the local stack and tests)");
        }
        if (value.isPresent()) {
            return new Plain(value.get());
        }
        if (secretArn.isEmpty()) {
            throw new IllegalStateException("No webhook signing secret: set " + ARN_KEY
                    + " (GPUPIPE_NOTIFIER_CALLBACK_SECRET_ARN, the Secrets Manager secret ARN) in AWS, or " + PLAIN_KEY
                    + " (GPUPIPE_NOTIFIER_CALLBACK_SECRET) for the local stack and tests");
        }
        if (!secretArn.get().matches("arn:[a-z-]+:secretsmanager:[a-z0-9-]+:\\d{12}:secret:.+")) {
            throw new IllegalStateException(ARN_KEY + " must be a Secrets Manager secret ARN "
                    + "(arn:<partition>:secretsmanager:<region>:<account>:secret:<name>), got: " + secretArn.get());
        }
        return new SecretArn(secretArn.get());
    }
}
