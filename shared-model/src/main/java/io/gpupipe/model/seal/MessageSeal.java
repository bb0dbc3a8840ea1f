package io.gpupipe.model.seal;

import io.gpupipe.model.Digests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The proof that a job message was sent by the router or the batch function: HMAC-SHA256 over the exact message
 * body (its UTF-8 bytes, as SQS delivers them) with the {@link KeyPurpose#MESSAGE_SEAL} key, base64, carried in the
 * {@link io.gpupipe.model.job.MessageAttributes#SEAL} attribute. Only those two and the consumers may read the
 * deployment key, so a producer that may only {@code sqs:SendMessage} cannot make one; a sealed message may name an
 * API caller's owner, an unsealed one is its producer's ({@link MessageOrigin}). The body is sealed as sent, not a
 * canonical form of it: SQS never rewrites a body, so there is nothing to canonicalise and nothing to get wrong.
 * Verification tries the current key, then the previous one (a rotation window, see docs/security.md).
 */
public final class MessageSeal {
    private final byte[] current;
    private final List<byte[]> accepted;

    private MessageSeal(byte[] current, List<byte[]> accepted) {
        this.current = current;
        this.accepted = accepted;
    }

    /** Seals with {@code key}; verifies seals of {@code key}, and of {@code previous} when present (rotation). */
    public static MessageSeal of(DeploymentKey key, Optional<DeploymentKey> previous) {
        byte[] current = Objects.requireNonNull(key, "key").derive(KeyPurpose.MESSAGE_SEAL);
        return new MessageSeal(current, previous.map(p -> List.of(current, p.derive(KeyPurpose.MESSAGE_SEAL)))
                .orElse(List.of(current)));
    }

    /** Seals and verifies with {@code key} alone. */
    public static MessageSeal of(DeploymentKey key) {
        return of(key, Optional.empty());
    }

    /** The seal of {@code body}. */
    public String seal(String body) {
        return Base64.getEncoder().encodeToString(mac(current, body));
    }

    /**
     * True when {@code seal} is the seal of exactly {@code body} under an accepted key; false for a missing,
     * malformed or wrong seal. Compared in constant time, so a sender cannot learn a seal byte by byte.
     */
    public boolean verifies(String body, String seal) {
        if (body == null || seal == null) {
            return false;
        }
        byte[] claimed;
        try {
            claimed = Base64.getDecoder().decode(seal.strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
        boolean verified = false;
        for (byte[] key : accepted) {
            verified |= MessageDigest.isEqual(mac(key, body), claimed);
        }
        return verified;
    }

    private static byte[] mac(byte[] key, String body) {
        return Digests.hmacSha256(key, body.getBytes(StandardCharsets.UTF_8));
    }
}
