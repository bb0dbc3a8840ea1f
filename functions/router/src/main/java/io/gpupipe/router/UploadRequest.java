package io.gpupipe.router;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.BatchLimits;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.JobJson;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The body of {@code POST /v1/batches/uploads}: {@code {"bytes": N}}, the size of the file the caller will PUT (as
 * OpenAI's {@code POST /v1/uploads} asks for it), 1 to {@link BatchLimits#MAX_FILE_BYTES}. The presigned PUT is
 * signed for exactly that length, so nobody can store a larger object through it.
 */
record UploadRequest(long bytes) {

    /** The request, or why not: every field error. */
    record Parsed(Optional<UploadRequest> request, List<FieldError> errors) {
    }

    static Parsed parse(String body) {
        JsonNode json;
        try {
            json = body == null || body.isBlank() ? null : JobJson.read(body, JsonNode.class);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return refused(new FieldError("body", ErrorCodes.INVALID_FORMAT, "the body must be a JSON object "
                    + "{\"bytes\": N}"));
        }
        JsonNode bytes = json == null || !json.isObject() ? null : json.get("bytes");
        if (bytes == null || bytes.isNull()) {
            return refused(new FieldError("bytes", ErrorCodes.REQUIRED, "bytes is required: the size of the file "
                    + "you will PUT, 1 to " + BatchLimits.MAX_FILE_BYTES + " (the upload URL takes exactly that many)"));
        }
        if (!bytes.isIntegralNumber() || !bytes.canConvertToLong()) {
            return refused(new FieldError("bytes", ErrorCodes.INVALID_TYPE, "bytes must be an integer"));
        }
        long value = bytes.longValue();
        if (value < 1 || value > BatchLimits.MAX_FILE_BYTES) {
            return refused(new FieldError("bytes", ErrorCodes.OUT_OF_RANGE, "bytes must be 1 to "
                    + BatchLimits.MAX_FILE_BYTES + " (the largest input file), got " + value));
        }
        return new Parsed(Optional.of(new UploadRequest(value)), List.of());
    }

    private static Parsed refused(FieldError error) {
        return new Parsed(Optional.empty(), List.of(error));
    }
}
