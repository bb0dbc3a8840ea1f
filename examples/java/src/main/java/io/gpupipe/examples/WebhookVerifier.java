package io.gpupipe.examples;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a callback as Standard Webhooks specifies, with the JDK only: {@code webhook-signature} holds
 * {@code v1,<base64 HMAC-SHA256>} over {@code webhook-id.webhook-timestamp.body} under the {@code whsec_} key, and the
 * timestamp is within five minutes of now (a replayed capture is refused).
 */
final class WebhookVerifier {
    private static final long TOLERANCE_SECONDS = 300;

    private final byte[] key;

    WebhookVerifier(String whsecSecret) {
        this.key = Base64.getDecoder().decode(whsecSecret.replaceFirst("^whsec_", ""));
    }

    boolean verify(String id, String timestamp, String signatures, String body) {
        if (id == null || timestamp == null || signatures == null) {
            return false;
        }
        try {
            if (Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp)) > TOLERANCE_SECONDS) {
                return false;
            }
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] expected = ("v1," + Base64.getEncoder().encodeToString(mac.doFinal(
                    (id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8))))
                    .getBytes(StandardCharsets.US_ASCII);
            return Arrays.stream(signatures.trim().split(" +"))
                    .anyMatch(s -> MessageDigest.isEqual(expected, s.getBytes(StandardCharsets.US_ASCII)));
        } catch (NumberFormatException | GeneralSecurityException e) {
            return false;
        }
    }
}
