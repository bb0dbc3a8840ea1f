package io.gpupipe.localstack;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.LambdaStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localstack.apigateway.HttpApiFacade;
import io.gpupipe.localstack.apigateway.HttpApiRoute;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.aws.LocalStandIns;
import io.gpupipe.localstack.console.WebConsole;
import io.gpupipe.localstack.events.MetricSchedule;
import io.gpupipe.localstack.events.S3EventDelivery;
import io.gpupipe.localstack.events.SqsEventSource;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.ComponentPackages;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.internal.Ports;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.localstack.sam.LocalQueues;
import io.gpupipe.localstack.sam.SamTemplate;
import io.gpupipe.model.Tier;
import io.gpupipe.model.api.ApiDescription;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The whole pipeline on one machine. In this JVM: SQS and S3 ({@link LocalAws}), the HTTP API facade, S3 event
 * delivery, the metric schedule and the SNS stand-in. In child processes: each Lambda function from its deployment
 * package, and one worker per tier. {@link #close()} stops it in dependency order: API first, then the workers
 * (drained), pending events, the functions, and SQS/S3 last.
 */
public final class LocalStack implements AutoCloseable {
    /**
     * Generous: a host that dies fails its start at once (its output ends), so this limit only ever stops a slow
     * start, and on a busy 2-core machine the functions and workers start together (the router took over 90 s at
     * load average 24).
     */
    static final Duration FUNCTION_START_LIMIT = Duration.ofMinutes(5);
    static final Duration WORKER_START_LIMIT = Duration.ofMinutes(5);
    static final Duration WORKER_DRAIN_LIMIT = Duration.ofSeconds(110);
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    /** Where the facade serves the local callers' public JWKS (an issuer's jwks_uri). */
    public static final String JWKS_PATH = "/.well-known/jwks.json";
    private final LaunchOptions options;
    private final Console console;
    private final ComponentPackages packages;
    private final Map<Tier, WorkerSupervisor> workers = new LinkedHashMap<>();
    private StackOverrides overrides = StackOverrides.none();
    private final List<String> notes = new ArrayList<>();
    private volatile boolean closed;
    private Path runDir;
    private Path textModel;
    private LocalAws aws;
    private SamTemplate sam;
    private SnsStandIn sns;
    private EcsStandIn ecs;
    private CloudWatchStandIn cloudWatch;
    private LambdaStandIn lambda;
    private LambdaFunction router;
    private LambdaFunction notifier;
    private LambdaFunction scalingMetric;
    private LambdaFunction deadLetter;
    private LambdaFunction batch;
    private SqsEventSource dlqEvents;
    private SqsEventSource batchEvents;
    private SqsEventSource callbackRetryEvents;
    private HttpApiFacade api;
    private LocalCallers callers;
    private S3EventDelivery s3Events;
    private MetricSchedule schedule;
    private WebConsole webConsole;

    private LocalStack(LaunchOptions options, Console console) {
        this.options = options;
        this.console = console;
        this.packages = new ComponentPackages(options.repo());
    }

    /** Starts everything and returns once the API answers and every worker is ready. */
    public static LocalStack start(LaunchOptions options, Console console) {
        LocalStack stack = create(options, console);
        stack.boot();
        return stack;
    }

    /** Starts a stack whose components see the endpoints, settings and environment {@code overrides} give. */
    public static LocalStack start(LaunchOptions options, Console console, StackOverrides overrides) {
        LocalStack stack = create(options, console);
        stack.overrides = overrides;
        stack.boot();
        return stack;
    }

    /** A stack not yet started, so that a shutdown hook can hold it while {@link #boot()} runs. */
    public static LocalStack create(LaunchOptions options, Console console) {
        return new LocalStack(options, console);
    }

    /** Starts every component; on failure, stops what had started and rethrows. */
    public void boot() {
        try {
            doBoot();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void doBoot() {
        Ports.requireFree(options.apiPort(), "--api-port", "HTTP API");
        Ports.requireFree(options.sqsPort(), "--sqs-port", "SQS endpoint");
        Ports.requireFree(options.s3Port(), "--s3-port", "S3 endpoint");
        textModel = TextModels.resolve(options, console);
        Path routerZip = packages.functionZip("router").orElseThrow(() -> notBuilt("functions/router/target/"
                + "function.zip"));
        Optional<Path> workerJar = packages.workerRunner();
        if (!options.workers().isEmpty() && workerJar.isEmpty()) {
            throw notBuilt("gpu-worker/target/quarkus-app/quarkus-run.jar");
        }
        sam = SamTemplate.read(packages.repo());
        runDir = createRunDir();
        Path childClasses = ComponentPackages.extractChildClasses(runDir.resolve("child-classes"));

        step("starting SQS (ElasticMQ) and S3 (S3Proxy)");
        aws = LocalAws.start(overrides.localAws(LocalAwsOptions.defaults().withPorts(options.sqsPort(),
                options.s3Port()).withDataDir(options.dataDir())));
        ComponentEnvironment env = new ComponentEnvironment(aws, options.traceFile());
        if (options.traceFile() != null) {
            console.info("every component appends its spans to " + options.traceFile());
        }

        Optional<Path> scalingZip = packages.functionZip("scaling-metric");
        if (scalingZip.isPresent()) {
            lambda = startLambda();
        }
        callers = LocalCallers.generate(options.requireToken(), Clock.systemUTC());
        step("starting the router function from " + packages.repo().relativize(routerZip));
        router = startFunction(spec("router", overrides.apply("router", withAuth(env.router(
                ComponentEnvironment.modelVersions(aws.tiers(), options.backend(), textModel),
                lambda == null ? null : lambda.endpoint()))))
                .withConcurrency(options.routerConcurrency()), routerZip, childClasses);
        Optional<Path> notifierZip = packages.functionZip("result-notifier");
        if (notifierZip.isPresent()) {
            sns = startSns();
            step("starting the result-notifier function");
            notifier = startFunction(spec("result-notifier", env.notifier(sns)), notifierZip.get(), childClasses);
        } else {
            notes.add("result notifier: not built (functions/result-notifier/target/function.zip), so no S3 event "
                    + "delivery");
        }
        if (scalingZip.isPresent()) {
            startControlPlane();
            step("starting the scaling-metric function");
            scalingMetric = startFunction(spec("scaling-metric", env.scalingMetric(ecs.endpoint(),
                    cloudWatch.endpoint())), scalingZip.get(), childClasses);
        } else {
            notes.add("scaling metric: not built (functions/scaling-metric/target/function.zip), so no schedule");
        }
        Optional<Path> deadLetterZip = packages.functionZip("dead-letter");
        if (deadLetterZip.isPresent()) {
            step("starting the dead-letter function");
            deadLetter = startFunction(spec("dead-letter", env.deadLetter()), deadLetterZip.get(), childClasses);
        } else {
            notes.add("dead-letter handler: not built (functions/dead-letter/target/function.zip), so no DLQ poller");
        }
        Optional<Path> batchZip = packages.functionZip("batch");
        if (batchZip.isPresent()) {
            step("starting the batch function");
            batch = startFunction(spec("batch", env.batch()), batchZip.get(), childClasses);
        } else {
            notes.add("batch function: not built (functions/batch/target/function.zip), so batches stay validating");
        }
        for (Tier tier : options.workers()) {
            step("starting " + WorkerProcess.name(tier) + " (" + describeBackend() + ")");
            Map<String, String> workerEnv = overrides.apply(WorkerProcess.name(tier),
                    env.worker(tier, options.backend(), textModel, options.modelServerUrl()));
            workers.put(tier, WorkerSupervisor.start(tier, () -> WorkerProcess.start(tier, workerJar.orElseThrow(),
                    childClasses, workerEnv, packages.repo(), console), overrides.restartPolicy(), console));
        }

        router.awaitReady(FUNCTION_START_LIMIT);
        api = startApi();
        warmUpRouter();
        if (notifier != null) {
            notifier.awaitReady(FUNCTION_START_LIMIT);
            SamTemplate.Function wiring = sam.function("result-notifier");
            s3Events = new S3EventDelivery(notifier, key -> wiring.s3Filters().stream().anyMatch(f -> f.passes(key)),
                    this::objectSize, console, Duration.ofSeconds(1));
            aws.onObjectCreated(s3Events);
            callbackRetryEvents = sqsEvents("callback-retries", notifier, "result-notifier");
        }
        if (scalingMetric != null) {
            scalingMetric.awaitReady(FUNCTION_START_LIMIT);
            lambda.register(ComponentEnvironment.SCALING_FUNCTION, this::wake);
        }
        if (deadLetter != null) {
            deadLetter.awaitReady(FUNCTION_START_LIMIT);
            dlqEvents = sqsEvents("dlq-events", deadLetter, "dead-letter");
        }
        if (batch != null) {
            batch.awaitReady(FUNCTION_START_LIMIT);
            batchEvents = sqsEvents("batch-events", batch, "batch");
        }
        for (WorkerProcess worker : overrides.awaitWorkers() ? workers().values() : List.<WorkerProcess>of()) {
            step("waiting for " + WorkerProcess.name(worker.tier()) + " to be ready (/q/health/ready)");
            worker.awaitReady(WORKER_START_LIMIT, PROGRESS_EVERY, console);
        }
        if (scalingMetric != null) {
            schedule = MetricSchedule.start(scalingMetric, Duration.ofSeconds(1), options.metricInterval(), console);
        }
        if (options.console()) {
            webConsole = WebConsole.start(this, api, console);
        }
        ensureOpen();
    }

    private void startControlPlane() {
        try {
            ecs = LocalStandIns.ecs(service -> {
                WorkerSupervisor worker = workers.values().stream()
                        .filter(w -> ComponentEnvironment.ecsService(w.tier()).equals(service)).findFirst()
                        .orElse(null);
                return worker != null && worker.current().process().isAlive() ? 1 : 0;
            });
            cloudWatch = LocalStandIns.cloudWatch(console);
        } catch (IOException e) {
            throw new StartupException("cannot start the local ECS/CloudWatch stand-in: " + e.getMessage(), e);
        }
    }

    /** A function with the memory and timeout sam-template.yaml gives its JVM package. */
    private LambdaFunction.Spec spec(String module, Map<String, String> environment) {
        SamTemplate.Function function = sam.function(module);
        return new LambdaFunction.Spec(module, function.memoryMiB(), function.timeout(), environment);
    }

    /** The function's one SQS event source as the template wires it (its queue and batch size). */
    private SqsEventSource sqsEvents(String label, LambdaFunction function, String module) {
        List<SamTemplate.SqsSource> sources = sam.function(module).sqsSources();
        if (sources.size() != 1) {
            throw new StartupException("sam-template.yaml gives " + module + " " + sources.size()
                    + " SQS event sources; the local stack runs exactly one");
        }
        SamTemplate.SqsSource source = sources.get(0);
        return SqsEventSource.start(label, function, aws, LocalQueues.of(source.queue()), console,
                source.batchSize());
    }

    private LambdaStandIn startLambda() {
        try {
            return LocalStandIns.lambda();
        } catch (IOException e) {
            throw new StartupException("cannot start the local Lambda stand-in: " + e.getMessage(), e);
        }
    }

    /** The router's asynchronous wake reaches the scaling function as Lambda would deliver it. */
    private void wake(byte[] event) {
        try {
            LambdaFunction.Invocation result = scalingMetric.invoke(event);
            console.component("lambda", "scaling-metric <- " + new String(event, StandardCharsets.UTF_8)
                    + (result.ok() ? "" : " failed: " + new String(result.payload(), StandardCharsets.UTF_8)));
        } catch (IOException | RuntimeException e) {
            console.component("lambda", "cannot invoke the scaling-metric function: " + e.getMessage());
        }
    }

    private LambdaFunction startFunction(LambdaFunction.Spec spec, Path zip, Path childClasses) {
        ensureOpen();
        List<Path> classpath = packages.lambdaClasspath(spec.name(), zip);
        return LambdaFunction.start(spec, classpath, childClasses, packages.repo(), console);
    }

    private SnsStandIn startSns() {
        try {
            return LocalStandIns.sns(console);
        } catch (IOException e) {
            throw new StartupException("cannot start the local SNS stand-in: " + e.getMessage(), e);
        }
    }

    private HttpApiFacade startApi() {
        ensureOpen();
        try {
            HttpApiFacade facade = HttpApiFacade.start(options.apiPort(), HttpApiRoute.ROUTER, router, console,
                    callers);
            facade.mount(JWKS_PATH, exchange -> {
                try (exchange) {
                    byte[] jwks = callers.jwks().getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().set("content-type", "application/json");
                    exchange.sendResponseHeaders(200, jwks.length);
                    exchange.getResponseBody().write(jwks);
                }
            });
            callers.writeJwks(runDir.resolve("jwks.json"));
            facade.serve(ApiDescription.PATH, ApiDescription.MEDIA_TYPE, ApiDescription.bytes());
            return facade;
        } catch (IOException e) {
            throw new StartupException("port " + options.apiPort() + " for the HTTP API is already in use; stop the "
                    + "program using it or choose another port with --api-port " + (options.apiPort() + 1), e);
        }
    }

    /** One request through the whole API path (facade, function, S3), so the first user request is warm. */
    private void warmUpRouter() {
        HttpClient client = HttpClient.newHttpClient();
        URI probe = URI.create("http://127.0.0.1:" + api.port() + "/v1/jobs/" + UUID.randomUUID());
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(probe).GET()
                    .header("Authorization", "Bearer " + callers.token(LocalCallers.CALLER_A))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 404) {
                console.info("router warm-up: GET of an unknown job answered " + response.statusCode() + " "
                        + response.body());
            }
        } catch (IOException e) {
            console.info("router warm-up failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted", e);
        }
    }

    private long objectSize(String bucket, String key) {
        try (var s3 = aws.newS3Client()) {
            return s3.headObject(b -> b.bucket(bucket).key(key)).contentLength();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private String describeBackend() {
        if (options.backend() == Backend.OPENAI) {
            return "openai backend at " + options.modelServerUrl();
        }
        return "embedded backend: FreeTTS speech, " + (textModel == null ? "no text model"
                : "text model " + textModel.getFileName());
    }

    private static Path createRunDir() {
        try {
            return Files.createTempDirectory("gpupipe-local-stack-");
        } catch (IOException e) {
            throw new StartupException("cannot create a temporary directory: " + e.getMessage(), e);
        }
    }

    private static StartupException notBuilt(String path) {
        return new StartupException(path + " not found: build the stack with the README command "
                + "(./mvnw -B -DskipTests -Plocal-stack -pl local-stack/launcher -am package)");
    }

    private void step(String message) {
        ensureOpen();
        console.info(message);
    }

    private void ensureOpen() {
        if (closed) {
            throw new StartupException("stopped while starting");
        }
    }

    public LaunchOptions options() {
        return options;
    }

    public URI apiUri() {
        return api.baseUri();
    }

    /** The local identity provider: the two callers' tokens, its JWKS, and whether a token is required. */
    public LocalCallers callers() {
        return callers;
    }

    /**
     * The router takes its callers from the facade's authorizers (a token's claims, or a SigV4 session's IAM
     * context): {@code any} (a request without either is refused) when the facade requires a token, {@code none}
     * (either when present, else the one anonymous caller) otherwise.
     */
    private Map<String, String> withAuth(Map<String, String> routerEnv) {
        Map<String, String> env = new LinkedHashMap<>(routerEnv);
        env.put("GPUPIPE_ROUTER_AUTH", callers.required() ? "any" : "none");
        return env;
    }

    public LocalAws aws() {
        return aws;
    }

    public Optional<Path> textModel() {
        return Optional.ofNullable(textModel);
    }

    public Optional<LambdaFunction> router() {
        return Optional.ofNullable(router);
    }

    public Optional<LambdaFunction> notifier() {
        return Optional.ofNullable(notifier);
    }

    public Optional<LambdaFunction> scalingMetric() {
        return Optional.ofNullable(scalingMetric);
    }

    public Optional<LambdaFunction> deadLetter() {
        return Optional.ofNullable(deadLetter);
    }

    public Optional<EcsStandIn> ecs() {
        return Optional.ofNullable(ecs);
    }

    public Optional<CloudWatchStandIn> cloudWatch() {
        return Optional.ofNullable(cloudWatch);
    }

    /** The Lambda stand-in the router's wakes go through (when the scaling function is built). */
    public Optional<LambdaStandIn> lambda() {
        return Optional.ofNullable(lambda);
    }

    public Optional<SnsStandIn> sns() {
        return Optional.ofNullable(sns);
    }

    public Optional<S3EventDelivery> s3Events() {
        return Optional.ofNullable(s3Events);
    }

    public Optional<SqsEventSource> dlqEvents() {
        return Optional.ofNullable(dlqEvents);
    }

    public Optional<SqsEventSource> batchEvents() {
        return Optional.ofNullable(batchEvents);
    }

    public Optional<MetricSchedule> schedule() {
        return Optional.ofNullable(schedule);
    }

    /** The web console's address, unless started with {@code --no-console}. */
    public Optional<URI> consoleUri() {
        return Optional.ofNullable(webConsole).map(WebConsole::uri);
    }

    /** The worker processes running now (a supervisor replaces one that dies). */
    public Map<Tier, WorkerProcess> workers() {
        Map<Tier, WorkerProcess> current = new LinkedHashMap<>();
        workers.forEach((tier, supervisor) -> current.put(tier, supervisor.current()));
        return current;
    }

    /** The supervisors keeping one worker per tier running. */
    public Map<Tier, WorkerSupervisor> workerSupervisors() {
        return Map.copyOf(workers);
    }

    /** What is missing or off (components not built), one line each. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (api != null) {
            api.close();
        }
        if (webConsole != null) {
            webConsole.close();
        }
        if (schedule != null) {
            schedule.close();
        }
        if (!workers.isEmpty()) {
            console.info("draining workers (SIGTERM; in-flight jobs finish or go back to the queue)");
            workers.values().parallelStream().forEach(w -> {
                if (!w.stop(WORKER_DRAIN_LIMIT)) {
                    console.info(WorkerProcess.name(w.tier()) + " did not stop in time and was killed");
                }
            });
        }
        if (s3Events != null) {
            s3Events.drain(Duration.ofSeconds(10));
        }
        for (SqsEventSource source : new SqsEventSource[] {dlqEvents, callbackRetryEvents, batchEvents}) {
            if (source != null) {
                source.close();
            }
        }
        for (LambdaFunction function : new LambdaFunction[] {router, notifier, scalingMetric, deadLetter, batch}) {
            if (function != null) {
                function.stop(Duration.ofSeconds(10));
            }
        }
        if (ecs != null) {
            ecs.close();
        }
        if (lambda != null) {
            lambda.close();
        }
        if (cloudWatch != null) {
            cloudWatch.close();
        }
        if (sns != null) {
            sns.close();
        }
        if (aws != null) {
            aws.close();
        }
        ComponentPackages.deleteTree(runDir);
    }
}
