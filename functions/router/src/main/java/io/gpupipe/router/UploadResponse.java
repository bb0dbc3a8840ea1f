package io.gpupipe.router;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer to {@code POST /v1/batches/uploads}: where to PUT the JSONL input ({@code upload_url}, presigned, until
 * {@code expires_at}, for a body of exactly {@code bytes} bytes) and the {@code input_file_id} to name in
 * {@code POST /v1/batches}.
 */
public record UploadResponse(@JsonProperty("input_file_id") String inputFileId,
                             @JsonProperty("upload_url") String uploadUrl, String method,
                             @JsonProperty("expires_at") long expiresAt, long bytes) {
}
