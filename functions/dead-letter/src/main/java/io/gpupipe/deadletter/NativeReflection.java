package io.gpupipe.deadletter;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types Jackson reads or writes by reflection, kept for native images: this module's own; the stored documents
 * are registered once by the adapters ({@link io.gpupipe.adapters.StoredDocuments}).
 */
@RegisterForReflection(targets = {SQSEvent.class, SQSEvent.SQSMessage.class, SQSEvent.MessageAttribute.class,
    SQSBatchResponse.class, SQSBatchResponse.BatchItemFailure.class})
public final class NativeReflection {
    private NativeReflection() {
    }
}
