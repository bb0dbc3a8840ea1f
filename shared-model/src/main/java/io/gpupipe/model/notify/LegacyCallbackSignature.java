package io.gpupipe.model.notify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The callback signature this project used before Standard Webhooks, still sent beside {@link CallbackSignature}
 * for one release so existing receivers keep working (deprecated; to be removed in the next release).
 * {@value #TIMESTAMP_HEADER} is the Unix time in seconds and {@value #SIGNATURE_HEADER} is {@code sha256=<lower-case
 * hex>} of HMAC-SHA256 keyed by the secret string's UTF-8 bytes over {@code timestamp + "." + body}.
 */
public final class LegacyCallbackSignature {
    public static final String SIGNATURE_HEADER = "X-Gpupipe-Signature";
    public static final String TIMESTAMP_HEADER = "X-Gpupipe-Timestamp";
    public static final String PREFIX = "sha256=";

    private LegacyCallbackSignature() {
    }

    /** The {@value #SIGNATURE_HEADER} value for {@code body} sent at {@code timestampSeconds}. */
    public static String sign(String secret, long timestampSeconds, String body) {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(body, "body");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("callback secret must not be empty");
        }
        byte[] key = secret.getBytes(StandardCharsets.UTF_8);
        return PREFIX + HexFormat.of().formatHex(CallbackSignature.hmac(key, timestampSeconds + "." + body));
    }

    /** The receiver's check: the timestamp within {@code tolerance} of {@code now} and the signature matching. */
    public static boolean verify(String secret, String signatureHeader, String timestampHeader, String body,
                                 Instant now, Duration tolerance) {
        if (signatureHeader == null || timestampHeader == null || body == null) {
            return false;
        }
        Long timestamp = CallbackSignature.timestampWithin(timestampHeader, now, tolerance);
        if (timestamp == null) {
            return false;
        }
        byte[] expected = sign(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, signatureHeader.trim().getBytes(StandardCharsets.US_ASCII));
    }
}
