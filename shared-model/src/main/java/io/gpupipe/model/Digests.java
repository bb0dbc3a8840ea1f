package io.gpupipe.model;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in lower-case hex, the one digest gpupipe uses for identities (request digests, cache keys, GGUF files). */
public final class Digests {
    private Digests() {
    }

    /** SHA-256 (hex) of the text's UTF-8 bytes. */
    public static String sha256Hex(String text) {
        return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
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

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has SHA-256", e);
        }
    }
}
