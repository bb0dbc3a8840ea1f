package io.gpupipe.model.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.JobJson;
import java.util.Optional;

/** The first step of reading a job document: JSON text to an object, or the one {@code body} error saying why not. */
final class JsonBodies {
    private JsonBodies() {
    }

    /** The JSON object of {@code json}; malformed JSON is a {@code body} error, never an exception. */
    static Either read(String json) {
        if (json == null || json.isBlank()) {
            return new Either(null, new FieldError("body", ErrorCodes.REQUIRED, "request body is required"));
        }
        try {
            return object(JobJson.mapper().readTree(json));
        } catch (JsonProcessingException e) {
            return new Either(null, new FieldError("body", ErrorCodes.INVALID_FORMAT, "request body is not valid "
                    + "JSON: " + e.getOriginalMessage()));
        }
    }

    /** {@code body} when it is a JSON object. */
    static Either object(JsonNode body) {
        if (body == null || body.isNull() || body.isMissingNode()) {
            return new Either(null, new FieldError("body", ErrorCodes.REQUIRED, "request body must be a JSON "
                    + "object, got null"));
        }
        if (!body.isObject()) {
            return new Either(null, new FieldError("body", ErrorCodes.INVALID_TYPE, "request body must be a JSON "
                    + "object, got " + FieldReader.describe(body)));
        }
        return new Either(body, null);
    }

    /** A JSON object, or the error that there is none. */
    record Either(JsonNode object, FieldError error) {
        Optional<FieldError> failure() {
            return Optional.ofNullable(error);
        }
    }
}
