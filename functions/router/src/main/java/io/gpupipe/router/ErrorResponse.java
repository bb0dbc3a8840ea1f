package io.gpupipe.router;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.gpupipe.model.FieldError;
import java.util.List;

/**
 * The body of every error answer: {@code {"errors":[{field, code, message}…]}}. {@code field} is a JSON field, the
 * path's {@code requestId}, {@code body}/{@code Content-Type} for problems with the request as a whole, or
 * {@code service} for server-side problems. {@code requestId} is set when known; {@code retryable} on 5xx.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorResponse(List<FieldError> errors, String requestId, Boolean retryable) {
    public ErrorResponse {
        errors = List.copyOf(errors);
    }

    public static ErrorResponse of(String field, String code, String message) {
        return new ErrorResponse(List.of(new FieldError(field, code, message)), null, null);
    }
}
