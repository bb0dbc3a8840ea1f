package io.gpupipe.model.usage;

import io.gpupipe.model.JobStatus;
import io.gpupipe.model.RequestIds;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.Owner;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * What one ended job counts in its caller's usage, derived from its result alone (the result is written once and never
 * changes, so every event of it derives the same record): the UTC day its result was written, its status, tier and
 * model, the tokens and inference time of its own model run, and whether the result cache answered it. A cache hit
 * ran no model: it counts as a cache hit with no tokens and no inference time. The record's fields are also its file
 * name ({@link #fileName()}), so a day's usage is read by listing names, without opening one object per job.
 *
 * @param storedId the job's stored id (one record per job: the key that makes a repeated event harmless)
 * @param tier     the tier, or null for a job that never reached one (some dead letters)
 * @param model    the model, or null when the result names none; at most {@link #MAX_MODEL_CHARS} characters
 */
public record UsageRecord(String storedId, LocalDate day, JobStatus status, String tier, String model,
                          long promptTokens, long completionTokens, long inferenceMs, boolean cached) {
    /** Longer model names are cut, so that a record's key stays far below S3's 1,024 bytes. */
    public static final int MAX_MODEL_CHARS = 100;
    private static final String SEPARATOR = "~";
    private static final String ABSENT = "-";
    private static final String SUFFIX = ".json";
    private static final int FIELDS = 8;

    public UsageRecord {
        if (!RequestIds.isValid(storedId)) {
            throw new IllegalArgumentException("a usage record names a job's stored id, got " + storedId);
        }
        if (day == null || (status != JobStatus.SUCCEEDED && status != JobStatus.FAILED)) {
            throw new IllegalArgumentException("a usage record has a day and a result's status (succeeded, failed)");
        }
        if (promptTokens < 0 || completionTokens < 0 || inferenceMs < 0) {
            throw new IllegalArgumentException("token counts and inference time are >= 0");
        }
        if (cached && (inferenceMs > 0 || promptTokens > 0 || completionTokens > 0)) {
            throw new IllegalArgumentException("a cache hit ran no model: no tokens, no inference time");
        }
        model = model == null || model.length() <= MAX_MODEL_CHARS ? model : model.substring(0, MAX_MODEL_CHARS);
    }

    /**
     * The record of {@code result}, when it counts in a caller's usage: its owner is an API caller (a job sent straight
     * to a queue belongs to no caller) and it names when it was written.
     */
    public static Optional<UsageRecord> of(JobResult result) {
        if (result.owner() == null || !Owner.isValid(result.owner()) || !new Owner(result.owner()).isCaller()
                || result.timestamp() == null || !RequestIds.isValid(result.requestId())) {
            return Optional.empty();
        }
        boolean cached = result.isCached();
        JobResult.Usage usage = result.result() == null ? null : result.result().usage();
        long prompt = cached || usage == null ? 0 : Math.max(0, usage.promptTokens());
        long completion = cached || usage == null ? 0 : Math.max(0, usage.completionTokens());
        long inference = cached || result.processingTimeMs() == null ? 0 : Math.max(0, result.processingTimeMs());
        return Optional.of(new UsageRecord(result.requestId(), result.timestamp().atZone(ZoneOffset.UTC).toLocalDate(),
                result.status(), result.tier() == null ? null : result.tier().wireName(), result.model(), prompt,
                completion, inference, cached));
    }

    /**
     * {@code {storedId}~{status}~{tier}~{model}~{promptTokens}~{completionTokens}~{inferenceMs}~{0|1}.json}, tier and
     * model percent-encoded ({@code -} when absent).
     */
    public String fileName() {
        return String.join(SEPARATOR, storedId, status.wireName(), encode(tier), encode(model),
                Long.toString(promptTokens), Long.toString(completionTokens), Long.toString(inferenceMs),
                cached ? "1" : "0") + SUFFIX;
    }

    /** The record named {@code fileName} in {@code day}'s records; empty for a name this class did not write. */
    public static Optional<UsageRecord> parse(LocalDate day, String fileName) {
        if (fileName == null || !fileName.endsWith(SUFFIX)) {
            return Optional.empty();
        }
        String[] parts = fileName.substring(0, fileName.length() - SUFFIX.length()).split(SEPARATOR, -1);
        if (parts.length != FIELDS) {
            return Optional.empty();
        }
        try {
            JobStatus status = parts[1].equals(JobStatus.SUCCEEDED.wireName()) ? JobStatus.SUCCEEDED
                    : parts[1].equals(JobStatus.FAILED.wireName()) ? JobStatus.FAILED : null;
            if (status == null || !(parts[7].equals("0") || parts[7].equals("1"))) {
                return Optional.empty();
            }
            return Optional.of(new UsageRecord(parts[0], day, status, decode(parts[2]), decode(parts[3]),
                    Long.parseLong(parts[4]), Long.parseLong(parts[5]), Long.parseLong(parts[6]),
                    parts[7].equals("1")));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String encode(String value) {
        if (value == null) {
            return ABSENT;
        }
        // URLEncoder leaves . - * _ as they are; - and ~ would be ambiguous here, so they are encoded too
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("-", "%2D").replace("~", "%7E")
                .replace("*", "%2A").replace("+", "%20");
    }

    private static String decode(String value) {
        return value.equals(ABSENT) ? null : URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
}
