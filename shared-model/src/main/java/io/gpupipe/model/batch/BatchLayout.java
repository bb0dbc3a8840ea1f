package io.gpupipe.model.batch;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.owner.Owner;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The S3 layout of batches in the results bucket, defined once. Uploads: {@code batch-inputs/{owner hash}/{uuid}.jsonl}
 * (the key says whose file it is: a batch reads only its own caller's uploads). Per
 * batch, under {@code batches/{id}/}: {@code batch.json} (the record), {@code chunks/{c}.json} (what each line of a
 * chunk became), {@code done/{c}/{line}.{outcome}} (one empty record per ended line), {@code ended/{c}.{counts}}
 * (a chunk whose lines have all ended; the key carries its counts, so one listing sums them), {@code parts/{c}.*}
 * (a chunk's output and error lines), then {@code output.jsonl}, {@code errors.jsonl} and {@code final.json} (the
 * terminal record, written create-only by exactly one finalizer; its creation triggers the batch event).
 */
public final class BatchLayout {
    public static final String INPUTS_PREFIX = "batch-inputs/";
    public static final String BATCHES_PREFIX = "batches/";
    public static final String FINAL_SUFFIX = "/final.json";
    private static final Pattern INPUT_KEY = Pattern.compile("^batch-inputs/([0-9a-f]{64})/"
            + "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\\.jsonl$");
    private static final Pattern DONE_NAME = Pattern.compile("^(\\d+)\\.([a-z])$");
    private static final Pattern ENDED_NAME = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)$");

    /** The two files a finished batch has, and each chunk's part of them. */
    public enum File {
        OUTPUT("output.jsonl"),
        ERRORS("errors.jsonl");

        private final String name;

        File(String name) {
            this.name = name;
        }

        public String fileName() {
            return name;
        }
    }

    private BatchLayout() {
    }

    /** Where {@code owner} uploads an input file (through a presigned PUT). */
    public static String inputKey(Owner owner, UUID upload) {
        return INPUTS_PREFIX + owner.hex() + "/" + upload.toString().toLowerCase(Locale.ROOT) + ".jsonl";
    }

    /**
     * {@code batch-inputs/{owner}/grants/{hour}/}: one empty object per upload URL handed out to {@code owner} in UTC
     * hour {@code epochHour} (hours since the epoch); the per-hour limit on upload URLs counts them. Under the inputs
     * prefix, so the same lifecycle rule expires them, and never an input key ({@link #isInputKey}).
     */
    public static String uploadGrantsPrefix(Owner owner, long epochHour) {
        return INPUTS_PREFIX + owner.hex() + "/grants/" + epochHour + "/";
    }

    /** The grant of one upload URL ({@link #uploadGrantsPrefix}). */
    public static String uploadGrantKey(Owner owner, long epochHour, UUID upload) {
        return uploadGrantsPrefix(owner, epochHour) + upload.toString().toLowerCase(Locale.ROOT);
    }

    /** True for a key {@link #inputKey} can hand out: a batch may read no other object. */
    public static boolean isInputKey(String key) {
        return key != null && INPUT_KEY.matcher(key).matches();
    }

    /** True for a key {@link #inputKey} hands out to {@code owner}: a caller's batch reads only its own uploads. */
    public static boolean isInputKeyOf(String key, Owner owner) {
        if (key == null || !owner.isCaller()) {
            return false;
        }
        Matcher matcher = INPUT_KEY.matcher(key);
        return matcher.matches() && matcher.group(1).equals(owner.hex());
    }

    public static String batchPrefix(String batchId) {
        return BATCHES_PREFIX + batchId + "/";
    }

    public static String recordKey(String batchId) {
        return batchPrefix(batchId) + "batch.json";
    }

    public static String finalKey(String batchId) {
        return BATCHES_PREFIX + batchId + FINAL_SUFFIX;
    }

    /** The batch whose terminal record {@code key} is, if it is one (the notifier's batch events). */
    public static Optional<String> batchIdOfFinalKey(String key) {
        if (key == null || !key.startsWith(BATCHES_PREFIX) || !key.endsWith(FINAL_SUFFIX)) {
            return Optional.empty();
        }
        String id = key.substring(BATCHES_PREFIX.length(), key.length() - FINAL_SUFFIX.length());
        return BatchIds.isValidBatchId(id) ? Optional.of(id) : Optional.empty();
    }

    public static String manifestKey(String batchId, int chunk) {
        return batchPrefix(batchId) + "chunks/" + chunkName(chunk) + ".json";
    }

    public static String donePrefix(String batchId, int chunk) {
        return batchPrefix(batchId) + "done/" + chunkName(chunk) + "/";
    }

    public static String doneKey(String batchId, int chunk, int line, LineOutcome outcome) {
        return donePrefix(batchId, chunk) + line + "." + outcome.code();
    }

    /** A done record's line and outcome, from its key (empty for any other key). */
    public static Optional<DoneRecord> parseDoneKey(String key) {
        Matcher name = DONE_NAME.matcher(key.substring(key.lastIndexOf('/') + 1));
        if (!name.matches()) {
            return Optional.empty();
        }
        return LineOutcome.fromCode(name.group(2).charAt(0))
                .map(outcome -> new DoneRecord(Integer.parseInt(name.group(1)), outcome));
    }

    public static String endedPrefix(String batchId) {
        return batchPrefix(batchId) + "ended/";
    }

    /** The ended record of a chunk: its counts are in the key, so listing {@link #endedPrefix} sums a batch. */
    public static String endedKey(String batchId, int chunk, LineCounts counts) {
        return endedPrefix(batchId) + countsName(chunk, counts);
    }

    public static String progressPrefix(String batchId) {
        return batchPrefix(batchId) + "progress/";
    }

    /** The progress records of one chunk (a record per count reached, older ones deleted as newer ones land). */
    public static String progressPrefix(String batchId, int chunk) {
        return progressPrefix(batchId) + chunkName(chunk) + ".";
    }

    /** A running chunk's counts so far, in the key. */
    public static String progressKey(String batchId, int chunk, LineCounts counts) {
        return progressPrefix(batchId) + countsName(chunk, counts);
    }

    private static String countsName(int chunk, LineCounts counts) {
        return chunkName(chunk) + "." + counts.succeeded() + "." + counts.failed() + "." + counts.expired() + "."
                + counts.cancelled() + "." + counts.invalid();
    }

    /** An ended or progress record's chunk and counts, from its key. */
    public static Optional<EndedChunk> parseCountsKey(String key) {
        Matcher name = ENDED_NAME.matcher(key.substring(key.lastIndexOf('/') + 1));
        if (!name.matches()) {
            return Optional.empty();
        }
        return Optional.of(new EndedChunk(Integer.parseInt(name.group(1)), new LineCounts(
                Integer.parseInt(name.group(2)), Integer.parseInt(name.group(3)), Integer.parseInt(name.group(4)),
                Integer.parseInt(name.group(5)), Integer.parseInt(name.group(6)))));
    }

    public static String partKey(String batchId, int chunk, File file) {
        return batchPrefix(batchId) + "parts/" + chunkName(chunk) + "." + file.fileName();
    }

    /**
     * The input of a retry batch, which the batch function writes from the batch it retries: under the batch's own
     * prefix (not {@link #INPUTS_PREFIX}, where only callers upload).
     */
    public static String retryInputKey(String retryBatchId) {
        return batchPrefix(retryBatchId) + "input.jsonl";
    }

    /** A retry batch's share of its input from chunk {@code chunk} of the batch it retries (then joined). */
    public static String retryPartKey(String retryBatchId, int chunk) {
        return batchPrefix(retryBatchId) + "retry-input/" + chunkName(chunk) + ".jsonl";
    }

    /** {@code output.jsonl} or {@code errors.jsonl}: OpenAI's output_file_id and error_file_id are these keys. */
    public static String fileKey(String batchId, File file) {
        return batchPrefix(batchId) + file.fileName();
    }

    private static String chunkName(int chunk) {
        return String.format(Locale.ROOT, "%05d", chunk);
    }

    /** One line's done record. */
    public record DoneRecord(int line, LineOutcome outcome) {
    }

    /** One chunk's ended record. */
    public record EndedChunk(int chunk, LineCounts counts) {
    }
}
