package io.gpupipe.localstack;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.LambdaStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.StackCloser.Stage;
import io.gpupipe.localstack.apigateway.HttpApiFacade;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.aws.LocalStandIns;
import io.gpupipe.localstack.console.ConsoleSources;
import io.gpupipe.localstack.console.WebConsole;
import io.gpupipe.localstack.events.MetricSchedule;
import io.gpupipe.localstack.events.S3EventDelivery;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.ComponentPackages;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.internal.Ports;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.localstack.sam.SamTemplate;
import io.gpupipe.model.Tier;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts the local stack's components in dependency order and returns the {@link LocalStack} they make. Each
 * component goes to the {@link StackCloser} as soon as it runs, so a start that fails (or is stopped by a signal)
 * stops what had started. An assembler starts one stack once; it is the only place that knows the start order.
 */
public final class StackAssembler {
    /**
     * Generous: a host that dies fails its start at once (its output ends), so this limit only ever stops a slow
     * start, and on a busy 2-core machine the functions and workers start together (the router took over 90 s at
     * load average 24).
     */
    static final Duration FUNCTION_START_LIMIT = Duration.ofMinutes(5);
    static final Duration WORKER_START_LIMIT = Duration.ofMinutes(5);
    static final Duration WORKER_DRAIN_LIMIT = Duration.ofSeconds(110);
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    private final LaunchOptions options;
    private final Console console;
    private final StackOverrides overrides;
    private final StackCloser closer;
    private final ComponentPackages packages;
    private final List<String> notes = new ArrayList<>();
    private final Map<Tier, WorkerSupervisor> workers = new LinkedHashMap<>();

    private StackAssembler(LaunchOptions options, Console console, StackOverrides overrides, StackCloser closer) {
        this.options = options;
        this.console = console;
        this.overrides = overrides;
        this.closer = closer;
        this.packages = new ComponentPackages(options.repo());
    }

    /** Starts everything and returns once the API answers and every worker is ready. */
    public static LocalStack start(LaunchOptions options, Console console) {
        return start(options, console, StackOverrides.none());
    }

    /** Starts a stack whose components see the endpoints, settings and environment {@code overrides} give. */
    public static LocalStack start(LaunchOptions options, Console console, StackOverrides overrides) {
        return start(options, console, overrides, new StackCloser(console));
    }

    /**
     * As above; on failure, stops what had started and rethrows. {@code closer} may be closed from another thread
     * meanwhile (a signal): the start stops.
     */
    static LocalStack start(LaunchOptions options, Console console, StackOverrides overrides, StackCloser closer) {
        try {
            return new StackAssembler(options, console, overrides, closer).assemble();
        } catch (RuntimeException e) {
            closer.close();
            throw e;
        }
    }

    private LocalStack assemble() {
        Ports.requireFree(options.apiPort(), "--api-port", "HTTP API");
        Ports.requireFree(options.sqsPort(), "--sqs-port", "SQS endpoint");
        Ports.requireFree(options.s3Port(), "--s3-port", "S3 endpoint");
        Path textModel = TextModels.resolve(options, console);
        Path routerZip = packages.functionZip("router").orElseThrow(() -> notBuilt("functions/router/target/"
                + "function.zip"));
        Optional<Path> workerJar = packages.workerRunner();
        if (!options.workers().isEmpty() && workerJar.isEmpty()) {
            throw notBuilt("gpu-worker/target/quarkus-app/quarkus-run.jar");
        }
        SamTemplate sam = SamTemplate.read(packages.repo());
        Path runDir = closer.add(Stage.FILES, ComponentPackages.createRunDir(), ComponentPackages::deleteTree);
        FunctionStarts functions = new FunctionStarts(packages, sam, runDir, closer, console, notes);

        step("starting SQS (ElasticMQ) and S3 (S3Proxy)");
        LocalAws aws = closer.add(Stage.STORAGE, LocalAws.start(overrides.localAws(LocalAwsOptions.defaults()
                .withPorts(options.sqsPort(), options.s3Port()).withDataDir(options.dataDir())
                .withAwsLatency(options.awsLatency()))), LocalAws::close);
        ComponentEnvironment env = new ComponentEnvironment(aws, options.traceFile());
        if (options.traceFile() != null) {
            console.info("every component appends its spans to " + options.traceFile());
        }

        Optional<Path> scalingZip = packages.functionZip("scaling-metric");
        Optional<LambdaStandIn> lambda = scalingZip.map(zip -> standIn("Lambda", LocalStandIns::lambda));
        LocalCallers callers = LocalCallers.generate(options.requireToken(), Clock.systemUTC());
        step("starting the router function from " + packages.repo().relativize(routerZip));
        LambdaFunction router = functions.start(functions.spec("router", overrides.apply("router",
                LocalApi.withAuth(env.router(ComponentEnvironment.modelVersions(aws.tiers(), options.backend(), textModel),
                        lambda.map(LambdaStandIn::endpoint).orElse(null)), callers)))
                .withConcurrency(options.routerConcurrency()), routerZip);
        Optional<SnsStandIn> sns = packages.functionZip("result-notifier").map(zip -> standIn("SNS",
                () -> LocalStandIns.sns(console)));
        Optional<LambdaFunction> notifier = functions.startIfBuilt("result-notifier", "result notifier",
                () -> env.notifier(sns.orElseThrow()), "so no S3 event delivery");
        Optional<EcsStandIn> ecs = scalingZip.map(zip -> standIn("ECS", () -> LocalStandIns.ecs(this::ecsTasks)));
        Optional<CloudWatchStandIn> cloudWatch = scalingZip.map(zip -> standIn("CloudWatch",
                () -> LocalStandIns.cloudWatch(console)));
        Optional<LambdaFunction> scalingMetric = functions.startIfBuilt("scaling-metric", "scaling metric",
                () -> env.scalingMetric(ecs.orElseThrow().endpoint(), cloudWatch.orElseThrow().endpoint()),
                "so no schedule");
        Optional<LambdaFunction> deadLetter = functions.startIfBuilt("dead-letter", "dead-letter handler",
                env::deadLetter, "so no DLQ poller");
        Optional<LambdaFunction> batch = functions.startIfBuilt("batch", "batch function", env::batch,
                "so batches stay validating");
        closer.add(Stage.WORKERS, workers, started -> drainWorkers());
        for (Tier tier : options.workers()) {
            step("starting " + WorkerProcess.name(tier) + " (" + describeBackend(textModel) + ")");
            Map<String, String> workerEnv = overrides.apply(WorkerProcess.name(tier),
                    env.worker(tier, options.backend(), textModel, options.modelServerUrl()));
            WorkerSupervisor worker = WorkerSupervisor.start(tier, () -> WorkerProcess.start(tier,
                    workerJar.orElseThrow(), functions.childClasses(), workerEnv, packages.repo(), console),
                    overrides.restartPolicy(), console);
            synchronized (workers) {
                workers.put(tier, worker);
            }
        }

        router.awaitReady(FUNCTION_START_LIMIT);
        HttpApiFacade api = closer.add(Stage.API, LocalApi.start(options.apiPort(), router, callers, runDir,
                console), HttpApiFacade::close);
        LocalApi.warmUp(api, callers, console);
        Optional<S3EventDelivery> s3Events = notifier.map(function -> {
            function.awaitReady(FUNCTION_START_LIMIT);
            SamTemplate.Function wiring = sam.function("result-notifier");
            S3EventDelivery delivery = closer.add(Stage.EVENTS, new S3EventDelivery(function, key -> wiring
                    .s3Filters().stream().anyMatch(f -> f.passes(key)), (bucket, key) -> objectSize(aws, bucket, key),
                    console, wiring.asyncRetries(), Duration.ofSeconds(1)), d -> d.drain(Duration.ofSeconds(10)));
            aws.onObjectCreated(delivery);
            return delivery;
        });
        Optional<SqsEventSource> callbackRetries = notifier.map(function -> functions.sqsEvents("callback-retries",
                function, "result-notifier", aws));
        scalingMetric.ifPresent(function -> {
            function.awaitReady(FUNCTION_START_LIMIT);
            lambda.orElseThrow().register(ComponentEnvironment.SCALING_FUNCTION, event -> wake(function, event));
        });
        Optional<SqsEventSource> dlqEvents = deadLetter.map(function -> {
            function.awaitReady(FUNCTION_START_LIMIT);
            return functions.sqsEvents("dlq-events", function, "dead-letter", aws);
        });
        Optional<SqsEventSource> batchEvents = batch.map(function -> {
            function.awaitReady(FUNCTION_START_LIMIT);
            return functions.sqsEvents("batch-events", function, "batch", aws);
        });
        for (WorkerProcess worker : overrides.awaitWorkers() ? currentWorkers().values() : List.<WorkerProcess>of()) {
            step("waiting for " + WorkerProcess.name(worker.tier()) + " to be ready (/q/health/ready)");
            worker.awaitReady(WORKER_START_LIMIT, PROGRESS_EVERY, console);
        }
        Optional<MetricSchedule> schedule = scalingMetric.map(function -> closer.add(Stage.SCHEDULE,
                MetricSchedule.start(function, Duration.ofSeconds(1), options.metricInterval(), console),
                MetricSchedule::close));
        Optional<URI> consoleUri = Optional.empty();
        if (options.console()) {
            WebConsole webConsole = closer.add(Stage.CONSOLE, WebConsole.start(new ConsoleSources(aws,
                    options.traceFile(), this::supervisors, dlqEvents, cloudWatch, callers), api, console),
                    WebConsole::close);
            consoleUri = Optional.of(webConsole.uri());
        }
        closer.ensureOpen();
        return new LocalStack(options, api.baseUri(), consoleUri, callers, aws, Optional.ofNullable(textModel),
                new LocalStack.Functions(router, notifier, scalingMetric, deadLetter, batch),
                new LocalStack.StandIns(sns, ecs, cloudWatch, lambda),
                new LocalStack.Events(s3Events, dlqEvents, batchEvents, callbackRetries, schedule),
                supervisors(), notes, closer);
    }

    /** A stand-in AWS service, stopped with the others. */
    private <T extends AutoCloseable> T standIn(String service, StandInStart<T> start) {
        closer.ensureOpen();
        try {
            return closer.add(Stage.STAND_INS, start.start(), StackAssembler::closeStandIn);
        } catch (IOException e) {
            throw new StartupException("cannot start the local " + service + " stand-in: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface StandInStart<T> {
        T start() throws IOException;
    }

    private static void closeStandIn(AutoCloseable standIn) {
        try {
            standIn.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop " + standIn + ": " + e.getMessage(), e);
        }
    }

    /** The ECS stand-in's running count: 1 while the service's worker process is alive. */
    private int ecsTasks(String service) {
        synchronized (workers) {
            return workers.values().stream().filter(w -> ComponentEnvironment.ecsService(w.tier()).equals(service))
                    .anyMatch(w -> w.current().process().isAlive()) ? 1 : 0;
        }
    }

    /** Every worker drains at once, each within {@link #WORKER_DRAIN_LIMIT}. */
    private void drainWorkers() {
        supervisors().values().parallelStream().forEach(w -> {
            if (!w.stop(WORKER_DRAIN_LIMIT)) {
                console.info(WorkerProcess.name(w.tier()) + " did not stop in time and was killed");
            }
        });
    }

    /** The supervisors started so far, in start order (the closer and the console read them from other threads). */
    private Map<Tier, WorkerSupervisor> supervisors() {
        synchronized (workers) {
            return new LinkedHashMap<>(workers);
        }
    }

    private Map<Tier, WorkerProcess> currentWorkers() {
        Map<Tier, WorkerProcess> current = new LinkedHashMap<>();
        supervisors().forEach((tier, supervisor) -> current.put(tier, supervisor.current()));
        return current;
    }

    /** The router's asynchronous wake reaches the scaling function as Lambda would deliver it. */
    private void wake(LambdaFunction scalingMetric, byte[] event) {
        try {
            LambdaFunction.Invocation result = scalingMetric.invoke(event);
            console.component("lambda", "scaling-metric <- " + new String(event, StandardCharsets.UTF_8)
                    + (result.ok() ? "" : " failed: " + new String(result.payload(), StandardCharsets.UTF_8)));
        } catch (IOException | RuntimeException e) {
            console.component("lambda", "cannot invoke the scaling-metric function: " + e.getMessage());
        }
    }

    private static long objectSize(LocalAws aws, String bucket, String key) {
        try (var s3 = aws.newS3Client()) {
            return s3.headObject(b -> b.bucket(bucket).key(key)).contentLength();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private String describeBackend(Path textModel) {
        if (options.backend() == Backend.OPENAI) {
            return "openai backend at " + options.modelServerUrl();
        }
        return "embedded backend: FreeTTS speech, " + (textModel == null ? "no text model"
                : "text model " + textModel.getFileName());
    }

    private static StartupException notBuilt(String path) {
        return new StartupException(path + " not found: build the stack with the README command "
                + "(./mvnw -B -DskipTests -Plocal-stack -pl local-stack/launcher -am package)");
    }

    private void step(String message) {
        closer.ensureOpen();
        console.info(message);
    }
}
