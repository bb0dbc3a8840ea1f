package io.gpupipe.notifier;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import io.gpupipe.notifier.domain.BatchReport;
import io.gpupipe.notifier.event.S3EventNotification;
import io.gpupipe.notifier.exception.NotificationFailedException;
import io.gpupipe.telemetry.Traces;
import jakarta.inject.Named;

/**
 * S3 ObjectCreated target for {@code results/*.json}, and SQS target of the callback retry queue (records with
 * eventSource {@code aws:sqs}: a failing redelivery fails the invocation, so SQS keeps the batch). Returns the per-record {@link BatchReport}; fails the
 * invocation (so that Lambda's asynchronous retries and on-failure destination apply) only when every record failed
 * with a retryable error, because S3 has no partial-batch protocol and a retry re-runs every record.
 */
@Named("result-notifier")
public class ResultNotifierHandler implements RequestHandler<S3EventNotification, BatchReport> {
    private final ResultNotifier notifier;
    private final Traces traces;

    ResultNotifierHandler(ResultNotifier notifier, Traces traces) {
        this.notifier = notifier;
        this.traces = traces;
    }

    @Override
    public BatchReport handleRequest(S3EventNotification event, Context context) {
        BatchReport report;
        try {
            report = notifier.notify(event);
        } finally {
            traces.flush(); // before the environment freezes
        }
        if (report.shouldFailInvocation()) {
            throw new NotificationFailedException("all " + report.records() + " record(s) failed retryably: "
                    + report.items().get(0).reason());
        }
        return report;
    }
}
