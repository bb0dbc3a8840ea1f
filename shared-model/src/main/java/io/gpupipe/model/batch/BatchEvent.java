package io.gpupipe.model.batch;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.gpupipe.model.JobJson;

/**
 * The one event a finished batch sends, to the SNS success topic (completed) or error topic (failed, expired,
 * cancelled) and, byte for byte, signed to its {@code callback_url}: {@code type} ({@code batch.completed},
 * {@code batch.failed}, {@code batch.expired}, {@code batch.cancelled}) and the batch object with its counts and
 * file ids, never the outputs themselves.
 */
public record BatchEvent(String type, BatchObject batch) {

    public static BatchEvent of(BatchState terminal) {
        if (!terminal.status().isTerminal()) {
            throw new IllegalArgumentException("only a finished batch has an event, not a "
                    + terminal.status().wireName() + " one");
        }
        return new BatchEvent("batch." + terminal.status().wireName(), BatchObject.of(terminal));
    }

    @JsonIgnore
    public boolean isSuccess() {
        return BatchStatus.COMPLETED.wireName().equals(batch.status());
    }

    /** The JSON sent to SNS and to the callback (the bytes that are signed). */
    public String toJson() {
        return JobJson.write(this);
    }
}
