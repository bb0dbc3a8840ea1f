package io.gpupipe.localstack.sam;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.exception.StartupException;
import java.util.Map;

/** The local queue standing in for each non-tier queue of sam-template.yaml (by logical id). */
public final class LocalQueues {
    private static final Map<String, String> BY_LOGICAL_ID = Map.of(
            "JobDeadLetterQueue", LocalAws.DLQ,
            "CallbackRetryQueue", LocalAws.CALLBACK_RETRY_QUEUE,
            "BatchQueue", LocalAws.BATCH_QUEUE,
            "BatchDeadLetterQueue", LocalAws.BATCH_DLQ);

    private LocalQueues() {
    }

    /** The local queue name of the template's queue {@code logicalId}. */
    public static String of(String logicalId) {
        String name = BY_LOGICAL_ID.get(logicalId);
        if (name == null) {
            throw new StartupException("sam-template.yaml wires a function to queue " + logicalId
                    + ", which the local stack does not create (local-aws LocalAws)");
        }
        return name;
    }
}
