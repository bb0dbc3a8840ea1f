package io.gpupipe.notifier.domain;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/** Reads what an S3 ObjectCreated record points at: the key as S3 encodes it, and the result document's text. */
public final class ResultDocument {

    /** A result document read from S3: usable, or why not. */
    public sealed interface Parsed {
        record Usable(JobResult result) implements Parsed {
        }

        record Unusable(String reason) implements Parsed {
        }
    }

    private ResultDocument() {
    }

    /** S3 event keys are form-URL-encoded ({@code +} for a space, {@code %xx} escapes). */
    public static String decodeKey(String eventKey) {
        try {
            return URLDecoder.decode(eventKey, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return eventKey;
        }
    }

    /** The request id of a {@code results/{id}.json} key, lower-cased; empty for any other key. */
    public static Optional<String> requestIdOfKey(String decodedKey) {
        return JobLayout.requestIdOfResultKey(decodedKey).map(id -> id.toLowerCase(Locale.ROOT));
    }

    /** Parses the object's text as a {@link JobResult} stored under the id {@code keyRequestId}. */
    public static Parsed parse(String body, String keyRequestId) {
        if (body == null || body.isBlank()) {
            return new Parsed.Unusable("object is empty");
        }
        JobResult result;
        try {
            result = JobJson.read(body, JobResult.class);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return new Parsed.Unusable("object is not a JSON job result: " + firstLine(e));
        }
        if (result == null) {
            return new Parsed.Unusable("object is JSON null");
        }
        if (!result.requestId().equalsIgnoreCase(keyRequestId)) {
            return new Parsed.Unusable("result requestId " + result.requestId() + " does not match its key");
        }
        return new Parsed.Usable(result);
    }

    private static String firstLine(Exception e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        String message = String.valueOf(cause.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
