package io.gpupipe.model;

import static java.util.Objects.requireNonNull;

/**
 * One problem with one field of a request. {@code field} is the JSON field name, or {@code "body"} for problems
 * with the request as a whole; {@code code} is a stable machine-readable code from {@link ErrorCodes}.
 */
public record FieldError(String field, String code, String message) {
    public FieldError {
        requireNonNull(field, "field");
        requireNonNull(code, "code");
        requireNonNull(message, "message");
    }
}
