package io.gpupipe.localstack;

import io.gpupipe.localaws.AwsLatency;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the launcher can be told. Ports 0 mean "any free port" (tests); {@code dataDir} null keeps S3 in
 * memory; {@code textModel} null means no text model (text jobs fail with {@code model_unavailable}) unless
 * {@code downloadTextModel} fetches the default one. {@code traceFile} non-null makes every component append its spans
 * to that one JSON-lines file ({@code --trace-file}). {@code console} serves the web console at
 * {@code /console} on the API port ({@code --no-console} turns it off). {@code requireToken} makes the HTTP API refuse
 * requests without a bearer token of one of the local callers, as a deployed API with a JWT authorizer does
 * ({@code --require-token}; off by default, so plain {@code curl} works as the anonymous caller). {@code awsLatency}
 * is added in front of the SQS and S3 endpoints ({@code --aws-latency}).
 */
public record LaunchOptions(
        int apiPort,
        int sqsPort,
        int s3Port,
        Path dataDir,
        Path textModel,
        boolean downloadTextModel,
        URI textModelUrl,
        String textModelSha256,
        Path cacheDir,
        Backend backend,
        URI modelServerUrl,
        Set<Tier> workers,
        Duration metricInterval,
        Path repo,
        int routerConcurrency,
        Path traceFile,
        boolean console,
        boolean requireToken,
        AwsLatency awsLatency) {

    public static final int DEFAULT_API_PORT = 8080;
    public static final int DEFAULT_SQS_PORT = 9324;
    public static final int DEFAULT_S3_PORT = 9000;
    public static final URI DEFAULT_TEXT_MODEL_URL =
            URI.create("https://huggingface.co/ggml-org/models/resolve/main/tinyllamas/stories260K.gguf");
    public static final String DEFAULT_TEXT_MODEL_SHA256 =
            "270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d";
    /** A compile-time constant, so that the generated {@code --help} can name it. */
    public static final int DEFAULT_METRIC_INTERVAL_SECONDS = 60;
    public static final Duration DEFAULT_METRIC_INTERVAL = Duration.ofSeconds(DEFAULT_METRIC_INTERVAL_SECONDS);
    /**
     * Router invocations at once: Lambda gives every concurrent request its own execution environment (up to the
     * account's concurrency limit), so a burst of clients never queues behind one environment. 16 covers the
     * benchmarks' 16 clients; the environments share one JVM here.
     */
    public static final int DEFAULT_ROUTER_CONCURRENCY = 16;
    public static final int MAX_ROUTER_CONCURRENCY = 64;

    public LaunchOptions {
        workers = Collections.unmodifiableSet(new LinkedHashSet<>(workers));
        Objects.requireNonNull(awsLatency, "awsLatency");
        if (routerConcurrency < 1 || routerConcurrency > MAX_ROUTER_CONCURRENCY) {
            throw new IllegalArgumentException("router concurrency must be 1.." + MAX_ROUTER_CONCURRENCY + ": "
                    + routerConcurrency);
        }
    }

    /** The options without added AWS latency. */
    public LaunchOptions(int apiPort, int sqsPort, int s3Port, Path dataDir, Path textModel,
                         boolean downloadTextModel, URI textModelUrl, String textModelSha256, Path cacheDir,
                         Backend backend, URI modelServerUrl, Set<Tier> workers, Duration metricInterval, Path repo,
                         int routerConcurrency, Path traceFile, boolean console, boolean requireToken) {
        this(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl, textModelSha256, cacheDir,
                backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency, traceFile, console,
                requireToken, AwsLatency.NONE);
    }

    /** The options with the default router concurrency. */
    public LaunchOptions(int apiPort, int sqsPort, int s3Port, Path dataDir, Path textModel,
                         boolean downloadTextModel, URI textModelUrl, String textModelSha256, Path cacheDir,
                         Backend backend, URI modelServerUrl, Set<Tier> workers, Duration metricInterval, Path repo) {
        this(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl, textModelSha256, cacheDir,
                backend, modelServerUrl, workers, metricInterval, repo, DEFAULT_ROUTER_CONCURRENCY, null, true, false);
    }

    /** The defaults of the command line, with the given repository root and cache directory. */
    public static LaunchOptions defaults(Path repo, Path cacheDir) {
        return new LaunchOptions(DEFAULT_API_PORT, DEFAULT_SQS_PORT, DEFAULT_S3_PORT, null, null, false,
                DEFAULT_TEXT_MODEL_URL, DEFAULT_TEXT_MODEL_SHA256, cacheDir, Backend.EMBEDDED, null,
                new LinkedHashSet<>(TierCatalogue.bundled().names()), DEFAULT_METRIC_INTERVAL, repo);
    }

    /** Any free ports for the API, SQS and S3 (tests; never collides with a developer's 8080). */
    public LaunchOptions withFreePorts() {
        return new LaunchOptions(0, 0, 0, dataDir, textModel, downloadTextModel, textModelUrl, textModelSha256,
                cacheDir, backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency, traceFile,
                console, requireToken, awsLatency);
    }

    public LaunchOptions withTextModel(Path model) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, model, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency,
                traceFile, console, requireToken, awsLatency);
    }

    public LaunchOptions withWorkers(Set<Tier> tiers) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, tiers, metricInterval, repo, routerConcurrency,
                traceFile, console, requireToken, awsLatency);
    }

    public LaunchOptions withMetricInterval(Duration interval) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, interval, repo, routerConcurrency,
                traceFile, console, requireToken, awsLatency);
    }

    public LaunchOptions withRouterConcurrency(int environments) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, metricInterval, repo, environments,
                traceFile, console, requireToken, awsLatency);
    }

    /** Every component appends its spans to {@code file} (JSON lines; null: no trace file). */
    public LaunchOptions withTraceFile(Path file) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency,
                file, console, requireToken, awsLatency);
    }

    /** The web console on ({@code true}, the default) or off. */
    public LaunchOptions withConsole(boolean on) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency,
                traceFile, on, requireToken, awsLatency);
    }

    /** Requests without a local caller's bearer token refused (401) or passed on as the anonymous caller. */
    public LaunchOptions withRequireToken(boolean required) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency,
                traceFile, console, required, awsLatency);
    }

    /** Every call to the local SQS and S3 endpoints waits {@code latency} first (a region's latency, locally). */
    public LaunchOptions withAwsLatency(AwsLatency latency) {
        return new LaunchOptions(apiPort, sqsPort, s3Port, dataDir, textModel, downloadTextModel, textModelUrl,
                textModelSha256, cacheDir, backend, modelServerUrl, workers, metricInterval, repo, routerConcurrency,
                traceFile, console, requireToken, latency);
    }
}
