package io.gpupipe.notifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallbackSecretSettingTest {
    private static final String ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:gpupipe-callback-AbC123";

    @Test
    void of_shouldUseThePlainValue_whenOnlyItIsSet() {
        // when
        CallbackSecretSetting setting = CallbackSecretSetting.of(Optional.of("k3y"), Optional.empty());

        // then
        assertThat(setting).isEqualTo(new CallbackSecretSetting.Plain("k3y"));
        assertThat(setting.toString()).doesNotContain("k3y");
    }

    @Test
    void of_shouldUseTheArn_whenOnlyItIsSetOrThePlainValueIsBlank() {
        // then
        assertThat(CallbackSecretSetting.of(Optional.empty(), Optional.of(ARN)))
                .isEqualTo(new CallbackSecretSetting.SecretArn(ARN));
        assertThat(CallbackSecretSetting.of(Optional.of("  "), Optional.of(" " + ARN + " ")))
                .isEqualTo(new CallbackSecretSetting.SecretArn(ARN));
    }

    @Test
    void of_shouldFailNamingBothSettings_whenBothAreSet() {
        assertThatThrownBy(() -> CallbackSecretSetting.of(Optional.of("k3y"), Optional.of(ARN)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Both").hasMessageContaining("(GPUPIPE_NOTIFIER_CALLBACK_SECRET)")
                .hasMessageContaining("GPUPIPE_NOTIFIER_CALLBACK_SECRET_ARN").hasMessageContaining("exactly one")
                .hasMessageNotContaining("k3y");
    }

    @Test
    void of_shouldFailNamingBothSettings_whenNeitherIsSet() {
        assertThatThrownBy(() -> CallbackSecretSetting.of(Optional.empty(), Optional.of("")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No webhook signing secret")
                .hasMessageContaining("gpupipe.notifier.callback-secret-arn")
                .hasMessageContaining("gpupipe.notifier.callback-secret ");
    }

    @Test
    void of_shouldFail_whenArnIsNotASecretsManagerSecretArn() {
        for (String bad : new String[] {"gpupipe-callback", "arn:aws:ssm:eu-west-1:123456789012:parameter/x",
            "{{resolve:secretsmanager:gpupipe-callback:SecretString}}"}) {
            assertThatThrownBy(() -> CallbackSecretSetting.of(Optional.empty(), Optional.of(bad))).as(bad)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("must be a Secrets Manager secret ARN").hasMessageContaining(bad);
        }
    }
}
