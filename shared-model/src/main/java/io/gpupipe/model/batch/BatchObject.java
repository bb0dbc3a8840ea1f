package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.net.URL;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The batch as the API answers it and the batch event carries it: OpenAI's Batch object (id, object "batch",
 * endpoint, errors, input_file_id, completion_window, status, output_file_id, error_file_id, the Unix-second
 * timestamps, request_counts, metadata), with every OpenAI field present even when null, as OpenAI answers. Where we
 * differ: the file ids are S3 keys of the results bucket, and our extensions {@code callback_url},
 * {@code output_file_url}, {@code error_file_url} (presigned GETs) and {@code file_urls_expire_at} appear only when
 * set.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record BatchObject(
        String id,
        String object,
        String endpoint,
        Errors errors,
        @JsonProperty("input_file_id") String inputFileId,
        @JsonProperty("completion_window") String completionWindow,
        String status,
        @JsonProperty("output_file_id") String outputFileId,
        @JsonProperty("error_file_id") String errorFileId,
        @JsonProperty("created_at") Long createdAt,
        @JsonProperty("in_progress_at") Long inProgressAt,
        @JsonProperty("expires_at") Long expiresAt,
        @JsonProperty("finalizing_at") Long finalizingAt,
        @JsonProperty("completed_at") Long completedAt,
        @JsonProperty("failed_at") Long failedAt,
        @JsonProperty("expired_at") Long expiredAt,
        @JsonProperty("cancelling_at") Long cancellingAt,
        @JsonProperty("cancelled_at") Long cancelledAt,
        @JsonProperty("request_counts") RequestCounts requestCounts,
        Map<String, String> metadata,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("callback_url") String callbackUrl,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("output_file_url") String outputFileUrl,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("error_file_url") String errorFileUrl,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("file_urls_expire_at") Long fileUrlsExpireAt) {

    public static final String OBJECT = "batch";

    /** OpenAI's {@code errors}: {@code {"object": "list", "data": [...]}}. */
    public record Errors(String object, List<BatchError> data) {
    }

    /** Presigned links to the finished batch's files. */
    public record Links(URL output, URL errors, Instant expireAt) {
        public static final Links NONE = new Links(null, null, null);
    }

    /** {@code state} with {@code counts} (the stored ones once finished, live ones before) and {@code links}. */
    public static BatchObject of(BatchState state, RequestCounts counts, BatchStatus status, Links links) {
        return new BatchObject(state.id(), OBJECT, state.endpoint().path(),
                state.errors() == null || state.errors().isEmpty() ? null : new Errors("list", state.errors()),
                state.inputFileId(), state.completionWindow(), status.wireName(), state.outputFileId(),
                state.errorFileId(), seconds(state.createdAt()), seconds(state.inProgressAt()),
                seconds(state.expiresAt()), seconds(state.finalizingAt()), seconds(state.completedAt()),
                seconds(state.failedAt()), seconds(state.expiredAt()), seconds(state.cancellingAt()),
                seconds(state.cancelledAt()), counts, state.shownMetadata(), state.callbackUrl(),
                links.output() == null ? null : links.output().toString(),
                links.errors() == null ? null : links.errors().toString(), seconds(links.expireAt()));
    }

    /** A stored state as it is (its own counts, no links): what the batch event carries. */
    public static BatchObject of(BatchState state) {
        return of(state, state.counts() == null ? RequestCounts.NONE : state.counts(), state.status(), Links.NONE);
    }

    private static Long seconds(Instant at) {
        return at == null ? null : at.getEpochSecond();
    }
}
