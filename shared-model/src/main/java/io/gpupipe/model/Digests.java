package io.gpupipe.model;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** SHA-256 in lower-case hex, the one digest gpupipe uses for identities (request digests, cache keys, GGUF files). */
public final class Digests {
    private static final String HMAC_SHA256 = "HmacSHA256";
    private Digests() {
    }

    /**
     * SHA-256 (hex) of the text's UTF-8 bytes. A valid job may carry unpaired surrogates (they travel as JSON escapes),
     * which {@code String.getBytes(UTF_8)} would replace with {@code '?'}, giving two different texts one digest; they
     * are encoded as their own three bytes instead (WTF-8), so the digest tells every string apart while well-formed
     * text keeps its plain UTF-8 digest.
     */
    public static String sha256Hex(String text) {
        return HexFormat.of().formatHex(sha256().digest(bytesOf(text)));
    }

    /**
     * A UUID with the version-4 and variant bits set, made of the first 16 bytes of SHA-256(text): the same text
     * always names the same id, and the id passes every check a random UUID v4 passes (derived job ids).
     */
    public static UUID uuidV4Of(String text) {
        byte[] hash = sha256().digest(text.getBytes(StandardCharsets.UTF_8));
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x40);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (hash[i] & 0xff);
            least = (least << 8) | (hash[8 + i] & 0xff);
        }
        return new UUID(most, least);
    }

    /** HMAC-SHA256 of {@code data} under {@code key}. */
    public static byte[] hmacSha256(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(HMAC_SHA256);
            mac.init(new SecretKeySpec(key, HMAC_SHA256));
            return mac.doFinal(data);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** HMAC-SHA256 (hex) of the text under {@code key}, its bytes encoded as {@link #sha256Hex(String)} does. */
    public static String hmacSha256Hex(byte[] key, String text) {
        return HexFormat.of().formatHex(hmacSha256(key, bytesOf(text)));
    }

    /** The text's UTF-8 bytes, an unpaired surrogate as its own three bytes (WTF-8): see {@link #sha256Hex(String)}. */
    private static byte[] bytesOf(String text) {
        return isWellFormed(text) ? text.getBytes(StandardCharsets.UTF_8) : wtf8(text);
    }

    /** SHA-256 (hex) of everything {@code in} holds (read to its end, not closed). */
    public static String sha256Hex(InputStream in) throws IOException {
        MessageDigest digest = sha256();
        byte[] buffer = new byte[1 << 16];
        for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
            digest.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static boolean isWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** UTF-8's algorithm applied to every code point, an unpaired surrogate included (WTF-8). */
    private static byte[] wtf8(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 16);
        text.codePoints().forEach(cp -> {
            if (cp < 0x80) {
                out.write(cp);
            } else if (cp < 0x800) {
                out.write(0xC0 | cp >> 6);
                out.write(0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                out.write(0xE0 | cp >> 12);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            } else {
                out.write(0xF0 | cp >> 18);
                out.write(0x80 | cp >> 12 & 0x3F);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            }
        });
        return out.toByteArray();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has SHA-256", e);
        }
    }
}
