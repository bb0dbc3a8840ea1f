package io.gpupipe.notifier;

import io.gpupipe.notifier.domain.BatchReport;
import io.gpupipe.notifier.domain.CallbackRedelivery;
import io.gpupipe.notifier.domain.ResultEvent;
import io.gpupipe.notifier.event.S3EventNotification;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Types Jackson reads or writes by reflection, kept for native images: this module's own; the stored documents
 * are registered once by the adapters ({@link io.gpupipe.adapters.StoredDocuments}).
 */
@RegisterForReflection(targets = {S3EventNotification.class, S3EventNotification.Record.class,
    S3EventNotification.S3.class, S3EventNotification.Bucket.class, S3EventNotification.S3Object.class,
    BatchReport.class, BatchReport.Item.class, ResultEvent.class, CallbackRedelivery.Message.class})
public final class NativeReflection {
    private NativeReflection() {
    }
}
