package io.gpupipe.model.batch;

import java.util.Map;

/** A valid {@code POST /v1/batches} request (OpenAI's create-batch body, plus our optional {@code callback_url}). */
public record BatchRequest(String inputFileId, BatchEndpoint endpoint, String completionWindow,
                           Map<String, String> metadata, String callbackUrl) {
    public BatchRequest {
        metadata = metadata == null ? null : Map.copyOf(metadata);
    }
}
