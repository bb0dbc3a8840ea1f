package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.FieldError;
import java.util.List;
import java.util.Objects;

/**
 * Why a line became no job. A line that is no request of the batch (not JSON, no custom_id, another url…) has a
 * {@code code} and {@code message} only; a request whose body our validator refused also has {@code fieldErrors},
 * named with the OpenAI body's parameter names, and is answered like an HTTP 400.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record LineError(String code, String message, List<FieldError> fieldErrors) {
    public static final String INVALID_JSON = "invalid_json";
    public static final String INVALID_LINE = "invalid_line";
    public static final String INVALID_CUSTOM_ID = "invalid_custom_id";
    public static final String DUPLICATE_CUSTOM_ID = "duplicate_custom_id";
    public static final String INVALID_METHOD = "invalid_method";
    public static final String INVALID_URL = "invalid_url";
    public static final String INVALID_BODY = "invalid_body";
    public static final String LINE_TOO_LONG = "line_too_long";
    /** The body was refused by the job validator ({@code fieldErrors} says how). */
    public static final String INVALID_REQUEST = "invalid_request";

    public LineError {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        fieldErrors = fieldErrors == null ? List.of() : List.copyOf(fieldErrors);
    }

    public static LineError of(String code, String message) {
        return new LineError(code, message, List.of());
    }

    /** True when the request reached the validator and was refused (an HTTP 400 in the error file). */
    public boolean isRejectedRequest() {
        return !fieldErrors.isEmpty();
    }
}
