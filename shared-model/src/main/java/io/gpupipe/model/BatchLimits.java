package io.gpupipe.model;

import java.time.Duration;

/**
 * The limits of a batch, defined once. OpenAI's Batch API takes up to 50,000 requests and 200 MB per input file
 * (OpenAI API reference, "Create batch": input_file_id); we take up to {@value #MAX_LINES} lines, so that one file can
 * hold a 100,000-job batch, and keep the 200 MB file limit.
 */
public final class BatchLimits {
    /** Most non-blank lines in one input file. */
    public static final int MAX_LINES = 100_000;
    /** Largest input file, in bytes (200 MiB). */
    public static final long MAX_FILE_BYTES = 200L * 1024 * 1024;
    /** Largest line, in bytes: a 100,000-character prompt of 3-byte characters plus its JSON fits (ours). */
    public static final int MAX_LINE_BYTES = 1024 * 1024;
    /**
     * Most lines per chunk (one queue message, one invocation of the batch function): one ListObjectsV2 page (at
     * most 1,000 keys, Amazon S3 API reference) lists every done record of a chunk.
     */
    public static final int MAX_CHUNK_LINES = 1_000;
    /** A chunk also closes once it holds this many bytes, so one invocation holds at most ~17 MiB of input. */
    public static final long MAX_CHUNK_BYTES = 16L * 1024 * 1024;
    /** The only completion window OpenAI's Batch API accepts ("Create batch": completion_window, "24h"). */
    public static final String COMPLETION_WINDOW = "24h";
    public static final Duration COMPLETION_WINDOW_DURATION = Duration.ofHours(24);
    /** OpenAI metadata: up to 16 key-value pairs, keys up to 64 characters, values up to 512. */
    public static final int MAX_METADATA_PAIRS = 16;
    public static final int MAX_METADATA_KEY_CHARS = 64;
    public static final int MAX_METADATA_VALUE_CHARS = 512;
    /** Our bound on custom_id (OpenAI only asks that it be unique within the batch). */
    public static final int MAX_CUSTOM_ID_CHARS = 512;

    private BatchLimits() {
    }
}
