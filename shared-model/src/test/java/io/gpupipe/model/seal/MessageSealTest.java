package io.gpupipe.model.seal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A seal proves the exact body was sealed with the deployment key; nothing else verifies. */
class MessageSealTest {
    private static final DeploymentKey KEY = DeploymentKey.of("k".repeat(DeploymentKey.MIN_BYTES));
    private static final DeploymentKey OTHER = DeploymentKey.of("o".repeat(DeploymentKey.MIN_BYTES));
    private static final String BODY = "{\"requestId\":\"550e8400-e29b-41d4-a716-446655440000\",\"prompt\":\"hi\"}";

    @Test
    void verifies_shouldAcceptTheSealOfTheExactBody() {
        MessageSeal seals = MessageSeal.of(KEY);

        assertThat(seals.verifies(BODY, seals.seal(BODY))).isTrue();
        // the same key read again seals alike (the router seals, the worker verifies, each with its own copy)
        assertThat(MessageSeal.of(DeploymentKey.of(" " + "k".repeat(32) + "\n")).verifies(BODY, seals.seal(BODY)))
                .isTrue();
    }

    @Test
    void verifies_shouldRefuseATamperedBody_aWrongKey_andAMissingOrMalformedSeal() {
        MessageSeal seals = MessageSeal.of(KEY);
        String seal = seals.seal(BODY);

        assertThat(seals.verifies(BODY.replace("hi", "ho"), seal)).isFalse();
        assertThat(seals.verifies(BODY + " ", seal)).isFalse();
        assertThat(seals.verifies(BODY, MessageSeal.of(OTHER).seal(BODY))).isFalse();
        assertThat(seals.verifies(BODY, null)).isFalse();
        assertThat(seals.verifies(BODY, "")).isFalse();
        assertThat(seals.verifies(BODY, "not base64 !")).isFalse();
        assertThat(seals.verifies(null, seal)).isFalse();
    }

    @Test
    void verifies_shouldAcceptThePreviousKeysSeals_duringARotation_andSealWithTheCurrentOne() {
        MessageSeal rotating = MessageSeal.of(OTHER, Optional.of(KEY));

        assertThat(rotating.verifies(BODY, MessageSeal.of(KEY).seal(BODY))).isTrue();
        assertThat(rotating.seal(BODY)).isEqualTo(MessageSeal.of(OTHER).seal(BODY));
        assertThat(MessageSeal.of(OTHER).verifies(BODY, MessageSeal.of(KEY).seal(BODY))).isFalse();
    }

    @Test
    void of_shouldRefuseAShortKey_andDeriveADistinctKeyPerPurpose() {
        assertThatThrownBy(() -> DeploymentKey.of("short")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32");
        assertThatThrownBy(() -> DeploymentKey.of(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(DeploymentKey.of(DeploymentKey.generateText())).isNotEqualTo(DeploymentKey.of(
                DeploymentKey.generateText()));
        assertThat(KEY.derive(KeyPurpose.MESSAGE_SEAL)).isNotEqualTo(OTHER.derive(KeyPurpose.MESSAGE_SEAL))
                .hasSize(32);
        assertThat(KEY).hasToString("DeploymentKey[redacted]");
    }
}
