package io.gpupipe.localstack.console;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.model.Tier;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the web console reads from the running stack, and nothing more.
 *
 * @param aws        SQS and S3: the jobs' objects, the queues, the DLQ
 * @param traceFile  where the components append their spans; null: none
 * @param workers    the supervisors of the worker processes, as they are now
 * @param dlqEvents  the dead-letter function's event source, when it runs (the DLQ view)
 * @param cloudWatch the CloudWatch stand-in, when the scaling function runs (the scaling chart)
 * @param callers    the local identity provider: with a token required, the console asks for one too
 */
public record ConsoleSources(LocalAws aws, Path traceFile, Supplier<Map<Tier, WorkerSupervisor>> workers,
                             Optional<SqsEventSource> dlqEvents, Optional<CloudWatchStandIn> cloudWatch,
                             LocalCallers callers) {
}
