package io.gpupipe.model.notify;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC-SHA256 signature of a callback. The sender sets {@value #TIMESTAMP_HEADER} to the Unix time in seconds and
 * {@value #SIGNATURE_HEADER} to {@code sha256=<lower-case hex>} of HMAC-SHA256(secret, {@code timestamp + "." +
 * body}). The timestamp is part of the signed payload, so a receiver that checks it is recent (see
 * {@link #verify}) rejects a replayed request even though the body is unchanged; a signature over the body alone
 * would let anyone who saw one callback replay it forever with a fresh timestamp header.
 */
public final class CallbackSignature {
    public static final String SIGNATURE_HEADER = "X-Gpupipe-Signature";
    public static final String TIMESTAMP_HEADER = "X-Gpupipe-Timestamp";
    public static final String PREFIX = "sha256=";
    /** How old a timestamp a receiver should accept by default. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final String ALGORITHM = "HmacSHA256";

    private CallbackSignature() {
    }

    /** The {@value #SIGNATURE_HEADER} value for {@code body} sent at {@code timestampSeconds}. */
    public static String sign(String secret, long timestampSeconds, String body) {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(body, "body");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("callback secret must not be empty");
        }
        return PREFIX + HexFormat.of().formatHex(hmac(secret, timestampSeconds + "." + body));
    }

    /**
     * The receiver's check: the timestamp header parses, lies within {@code tolerance} of {@code now}, and the
     * signature matches (compared in constant time). Any missing or malformed header fails.
     */
    public static boolean verify(String secret, String signatureHeader, String timestampHeader, String body,
                                 Instant now, Duration tolerance) {
        if (signatureHeader == null || timestampHeader == null || body == null) {
            return false;
        }
        long timestamp;
        try {
            timestamp = Long.parseLong(timestampHeader.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(now.getEpochSecond() - timestamp) > tolerance.toSeconds()) {
            return false;
        }
        byte[] expected = sign(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        byte[] actual = signatureHeader.trim().getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, actual);
    }

    private static byte[] hmac(String secret, String payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
