package io.gpupipe.localstack;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.LambdaStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.events.MetricSchedule;
import io.gpupipe.localstack.events.S3EventDelivery;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.model.Tier;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The whole pipeline running on one machine, as {@code StackAssembler.start} made it: in this JVM SQS and S3
 * ({@link LocalAws}), the HTTP API facade, S3 event delivery, the metric schedule and the AWS stand-ins; in child
 * processes each Lambda function from its deployment package and one worker per tier. What is not built or switched
 * off is empty, and {@link #notes()} says why. {@link #close()} stops it all ({@link StackCloser}).
 *
 * @param apiUri      the HTTP API, e.g. http://localhost:8080
 * @param consoleUri  the web console's page, unless started with {@code --no-console}
 * @param callers     the local identity provider: the two callers' tokens, its JWKS, whether a token is required
 * @param textModel   the GGUF model the embedded backend's text workers load, when there is one
 * @param workerSupervisors the supervisors keeping one worker per tier running
 * @param notes       what is missing or off (components not built), one line each
 */
public record LocalStack(LaunchOptions options, URI apiUri, Optional<URI> consoleUri, LocalCallers callers,
                         LocalAws aws, Optional<Path> textModel, Functions functions, StandIns standIns, Events events,
                         Map<Tier, WorkerSupervisor> workerSupervisors, List<String> notes, StackCloser closer)
        implements AutoCloseable {

    /** Where the facade serves the local callers' public JWKS (an issuer's jwks_uri). */
    public static final String JWKS_PATH = "/.well-known/jwks.json";

    public LocalStack {
        workerSupervisors = Collections.unmodifiableMap(new LinkedHashMap<>(workerSupervisors));
        notes = List.copyOf(notes);
    }

    /** The Lambda functions running in child processes; the router always, the others when built. */
    public record Functions(LambdaFunction router, Optional<LambdaFunction> notifier,
                            Optional<LambdaFunction> scalingMetric, Optional<LambdaFunction> deadLetter,
                            Optional<LambdaFunction> batch) {
    }

    /**
     * The AWS services the functions call besides SQS and S3: SNS (with the notifier), ECS and CloudWatch (with the
     * scaling function), and Lambda, through which the router's wakes reach the scaling function.
     */
    public record StandIns(Optional<SnsStandIn> sns, Optional<EcsStandIn> ecs, Optional<CloudWatchStandIn> cloudWatch,
                           Optional<LambdaStandIn> lambda) {
    }

    /** What delivers events to the functions as AWS would: S3 notifications, SQS event sources, the schedule. */
    public record Events(Optional<S3EventDelivery> s3, Optional<SqsEventSource> dlq, Optional<SqsEventSource> batch,
                         Optional<SqsEventSource> callbackRetries, Optional<MetricSchedule> schedule) {
    }

    /** The worker processes running now (a supervisor replaces one that dies). */
    public Map<Tier, WorkerProcess> workers() {
        Map<Tier, WorkerProcess> current = new LinkedHashMap<>();
        workerSupervisors.forEach((tier, supervisor) -> current.put(tier, supervisor.current()));
        return current;
    }

    /** Stops everything in dependency order: API first, then the workers (drained), events, functions, SQS/S3. */
    @Override
    public void close() {
        closer.close();
    }
}
