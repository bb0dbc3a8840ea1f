package io.gpupipe.model.batch;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Batch ids ({@code batch_<uuid>}, OpenAI's {@code batch_} prefix) and the deterministic request id of each line's
 * job: a UUID with the version-4 and variant bits set, derived from SHA-256(batchId + "/" + line), so every delivery
 * of a chunk names the same jobs and the router's create-only marker stops a second one.
 */
public final class BatchIds {
    public static final String PREFIX = "batch_";
    /** OpenAI's prefix of a batch output line's id ({@code batch_req_…}). */
    public static final String LINE_PREFIX = "batch_req_";
    private static final Pattern BATCH_ID = Pattern.compile(
            "^batch_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    private BatchIds() {
    }

    /** A new batch id around {@code uuid} (a random UUID v4). */
    public static String newBatchId(UUID uuid) {
        return PREFIX + uuid.toString().toLowerCase(Locale.ROOT);
    }

    /** True for {@code batch_} followed by a lower-case UUID v4. */
    public static boolean isValidBatchId(String id) {
        return id != null && BATCH_ID.matcher(id).matches();
    }

    /** The request id of line {@code line} (1-based) of batch {@code batchId}: a valid UUID v4, lower case. */
    public static String jobId(String batchId, int line) {
        byte[] hash = sha256(batchId + "/" + line);
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x40);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (hash[i] & 0xff);
            least = (least << 8) | (hash[8 + i] & 0xff);
        }
        return new UUID(most, least).toString();
    }

    /** The {@code id} of line {@code line}'s output or error line. */
    public static String lineId(String batchId, int line) {
        return LINE_PREFIX + jobId(batchId, line).replace("-", "");
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JRE has SHA-256", e);
        }
    }
}
