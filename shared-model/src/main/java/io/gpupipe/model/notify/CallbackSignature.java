package io.gpupipe.model.notify;

import io.gpupipe.model.Digests;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Callback signing as Standard Webhooks 1.0 specifies it, so receivers can verify with that project's libraries:
 * {@value #ID_HEADER} names the event and stays the same on every retry of it (the receiver's idempotency key),
 * {@value #TIMESTAMP_HEADER} is the attempt's Unix time in seconds, and {@value #SIGNATURE_HEADER} is {@code v1,} and
 * the base64 HMAC-SHA256 over {@code id + "." + timestamp + "." + body} under the {@link CallbackKey}. Signing the
 * timestamp lets a receiver that checks it is recent ({@link #verify}) refuse a replayed request.
 */
public final class CallbackSignature {
    public static final String ID_HEADER = "webhook-id";
    public static final String TIMESTAMP_HEADER = "webhook-timestamp";
    public static final String SIGNATURE_HEADER = "webhook-signature";
    /** The symmetric (HMAC-SHA256) signature's version tag. */
    public static final String VERSION = "v1";
    /** How old (or how far ahead) a timestamp a receiver should accept by default, as the reference libraries do. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private static final String MESSAGE_ID_PREFIX = "msg_";

    private CallbackSignature() {
    }

    /**
     * The {@value #ID_HEADER} of the event about document {@code documentId} (a request or batch id) in
     * {@code bucket}: the same for every attempt and redelivery of that event, different for every other event. A
     * digest rather than the id itself, because the spec wants no caller-chosen text (and no {@code .}) in it.
     */
    public static String messageId(String bucket, String documentId) {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(documentId, "documentId");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (bucket + "/" + documentId).getBytes(StandardCharsets.UTF_8));
            return MESSAGE_ID_PREFIX + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The {@value #SIGNATURE_HEADER} value for {@code body} sent as {@code messageId} at {@code timestampSeconds}. */
    public static String sign(CallbackKey key, String messageId, long timestampSeconds, String body) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(body, "body");
        return VERSION + "," + Base64.getEncoder().encodeToString(
                hmac(key.bytes(), messageId + "." + timestampSeconds + "." + body));
    }

    /**
     * The receiver's check: all three headers present, the timestamp within {@code tolerance} of {@code now}, and one
     * of the space-separated {@code v1,} signatures matching (compared in constant time); others are ignored.
     */
    public static boolean verify(CallbackKey key, String messageId, String timestampHeader, String signatureHeader,
                                 String body, Instant now, Duration tolerance) {
        if (messageId == null || timestampHeader == null || signatureHeader == null || body == null) {
            return false;
        }
        Long timestamp = timestampWithin(timestampHeader, now, tolerance);
        if (timestamp == null) {
            return false;
        }
        byte[] expected = sign(key, messageId, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        for (String candidate : signatureHeader.trim().split(" +")) {
            if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII))) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #verify(CallbackKey, String, String, String, String, Instant, Duration)} on a request's headers, read
     * with {@code header} (a case-insensitive lookup, such as {@code HttpExchange.getRequestHeaders()::getFirst}).
     */
    public static boolean verify(CallbackKey key, UnaryOperator<String> header, String body, Instant now,
                                 Duration tolerance) {
        return verify(key, header.apply(ID_HEADER), header.apply(TIMESTAMP_HEADER), header.apply(SIGNATURE_HEADER),
                body, now, tolerance);
    }

    /** The header's Unix seconds when they parse and lie within {@code tolerance} of {@code now}, else null. */
    static Long timestampWithin(String timestampHeader, Instant now, Duration tolerance) {
        long timestamp;
        try {
            timestamp = Long.parseLong(timestampHeader.trim());
        } catch (NumberFormatException e) {
            return null;
        }
        return Math.abs(now.getEpochSecond() - timestamp) > tolerance.toSeconds() ? null : timestamp;
    }

    static byte[] hmac(byte[] key, String payload) {
        return Digests.hmacSha256(key, payload.getBytes(StandardCharsets.UTF_8));
    }
}
