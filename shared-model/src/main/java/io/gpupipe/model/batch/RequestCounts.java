package io.gpupipe.model.batch;

/** OpenAI's {@code request_counts} of a batch object. */
public record RequestCounts(int total, int completed, int failed) {
    public static final RequestCounts NONE = new RequestCounts(0, 0, 0);
}
