package io.gpupipe.model;

import io.gpupipe.model.Digests;
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
        return Digests.uuidV4Of(batchId + "/" + line).toString();
    }

    /** The {@code id} of line {@code line}'s output or error line. */
    public static String lineId(String batchId, int line) {
        return LINE_PREFIX + jobId(batchId, line).replace("-", "");
    }
}
