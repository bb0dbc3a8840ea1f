package io.gpupipe.model.embedding;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * How an embedding job's vectors are written (OpenAI's {@code encoding_format}): JSON numbers, or base64 of the
 * vector's little-endian float32 bytes, as OpenAI and vLLM encode it.
 */
public enum EncodingFormat {
    FLOAT("float"),
    BASE64("base64");

    private final String wireName;

    EncodingFormat(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public static Optional<EncodingFormat> fromWireName(String name) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(name)).findFirst();
    }

    @JsonCreator
    static EncodingFormat fromJson(String name) {
        return fromWireName(name).orElseThrow(() -> new IllegalArgumentException("unknown encoding format: " + name));
    }
}
