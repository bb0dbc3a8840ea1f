package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Why a batch failed as a whole (OpenAI's {@code errors.data[]}: code, message, param, line). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchError(String code, String message, String param, Integer line) {
    public static BatchError of(String code, String message) {
        return new BatchError(code, message, null, null);
    }
}
