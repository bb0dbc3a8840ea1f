package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;

/**
 * One line of a batch's output or error file, in OpenAI's format (OpenAI API reference, "The request output object":
 * {@code {id, custom_id, response: {status_code, request_id, body}, error: {code, message}}}). {@code response} and
 * {@code error} are written even when null, as OpenAI writes them, so a client reading {@code line["error"]} finds
 * the key.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record OutputLine(String id, @JsonProperty("custom_id") String customId, Response response, Error error) {

    /** The HTTP answer the request got (a success, or a refusal such as a 400). */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Response(@JsonProperty("status_code") int statusCode, @JsonProperty("request_id") String requestId,
                           JsonNode body) {
    }

    /** A failure that is no HTTP answer (OpenAI: "For requests that failed with a non-HTTP error"). */
    public record Error(String code, String message) {
    }

    /** The line as written to the file (one JSON document, no newline). */
    public String toJson() {
        return JobJson.write(this);
    }
}
