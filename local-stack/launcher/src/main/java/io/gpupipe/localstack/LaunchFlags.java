package io.gpupipe.localstack;

import io.gpupipe.localaws.AwsLatency;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * The launcher's flags as picocli reads them; a flag not given stays null and takes its default (or environment
 * variable) in {@link #options}. Each converter refuses a bad value with the one line the user sees.
 */
@Command(name = "local-stack", sortOptions = false, abbreviateSynopsis = true, usageHelpWidth = 120,
        description = {"gpupipe local stack: the whole pipeline on this machine (SQS, S3, router, one worker per "
                + "tier, the web console).", "",
            "Flags (pass them through Maven with -Dlocal-stack.args=\"...\"):"},
        footer = {"", "Ctrl-C drains the workers, stops everything and exits 0."})
final class LaunchFlags {
    @Option(names = "--api-port", paramLabel = "N", converter = PortConverter.class,
            description = "HTTP API (router) and web console port [" + LaunchOptions.DEFAULT_API_PORT + "]")
    Integer apiPort;

    @Option(names = "--sqs-port", paramLabel = "N", converter = PortConverter.class,
            description = "SQS endpoint (ElasticMQ) port [" + LaunchOptions.DEFAULT_SQS_PORT + "]")
    Integer sqsPort;

    @Option(names = "--s3-port", paramLabel = "N", converter = PortConverter.class,
            description = {"S3 endpoint (S3Proxy) port [" + LaunchOptions.DEFAULT_S3_PORT + "]",
                "(0 for any free port)"})
    Integer s3Port;

    @Option(names = "--data", paramLabel = "DIR",
            description = "keep S3 objects on disk in DIR across restarts [in memory]")
    Path data;

    @Option(names = "--text-model", paramLabel = "PATH",
            description = "GGUF file for text jobs (embedded backend) [$GPUPIPE_TEXT_MODEL]")
    Path textModel;

    @Option(names = "--download-text-model", description = {"fetch the default small GGUF (TinyStories 260K) once "
            + "into the cache,", "checked against its pinned SHA-256"})
    boolean downloadTextModel;

    @Option(names = "--text-model-url", paramLabel = "URL", converter = UrlConverter.class,
            description = "where --download-text-model fetches from [$GPUPIPE_TEXT_MODEL_URL]")
    URI textModelUrl;

    @Option(names = "--text-model-sha256", paramLabel = "HEX", converter = Sha256Converter.class,
            description = "the SHA-256 the download must have")
    String textModelSha256;

    @Option(names = "--cache-dir", paramLabel = "DIR",
            description = "download cache [$GPUPIPE_CACHE_DIR or ~/.cache/gpupipe]")
    Path cacheDir;

    @Option(names = "--backend", paramLabel = "NAME", converter = BackendConverter.class,
            description = "embedded (FreeTTS + llama.cpp, no GPU) or openai [embedded]")
    Backend backend;

    @Option(names = "--model-server-url", paramLabel = "URL", converter = UrlConverter.class,
            description = "OpenAI-compatible server for --backend openai (vLLM, llama.cpp server)")
    URI modelServerUrl;

    @Option(names = "--workers", paramLabel = "LIST", converter = TiersConverter.class,
            completionCandidates = WorkerChoices.class,
            description = {"tiers that get a worker: any of ${COMPLETION-CANDIDATES}",
                "[every tier]; run the others yourself, e.g. from your IDE"})
    Set<Tier> workers;

    @Option(names = "--metric-interval", paramLabel = "SECS", converter = SecondsConverter.class,
            description = "how often the scaling-metric function runs ["
                    + LaunchOptions.DEFAULT_METRIC_INTERVAL_SECONDS + "]")
    Duration metricInterval;

    @Option(names = "--router-concurrency", paramLabel = "N", converter = EnvironmentsConverter.class,
            description = "router invocations at once (Lambda execution environments, 1-"
                    + LaunchOptions.MAX_ROUTER_CONCURRENCY + ") [" + LaunchOptions.DEFAULT_ROUTER_CONCURRENCY + "]")
    Integer routerConcurrency;

    @Option(names = "--trace-file", paramLabel = "FILE",
            description = "every component appends its spans to FILE (JSON lines) [off]")
    Path traceFile;

    @Option(names = "--console", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "the web console at http://localhost:<api port>/console [on]")
    boolean console;

    @Option(names = "--require-token", description = {"refuse API requests without one of the printed bearer tokens "
            + "(401), as a deployed API with a JWT authorizer does [off: requests without a token are the one "
            + "anonymous caller]"})
    boolean requireToken;

    @Option(names = "--aws-latency", paramLabel = "LIST", converter = AwsLatencyConverter.class,
            description = {"delay every SQS and S3 call, as a region would, e.g. s3=20ms,sqs=10ms", "[none]"})
    AwsLatency awsLatency;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
    boolean help;

    /** A problem of the flags together; its message is the one line shown to the user. */
    static final class BadFlagException extends RuntimeException {
        BadFlagException(String message) {
            super(message);
        }
    }

    /** A flag's value a converter refuses; the message follows the flag's name ("must be ..., got 'x'"). */
    static final class BadValueException extends RuntimeException {
        BadValueException(String problem) {
            super(problem);
        }
    }

    /** The options these flags give, with {@code defaults} and {@code env} for what they leave out. */
    LaunchOptions options(LaunchOptions defaults, Map<String, String> env) {
        Path model = textModel != null ? textModel : fromEnv(env, "GPUPIPE_TEXT_MODEL", Path::of)
                .orElse(defaults.textModel());
        URI modelUrl = textModelUrl != null ? textModelUrl : fromEnv(env, "GPUPIPE_TEXT_MODEL_URL",
                LaunchFlags::envUrl).orElse(defaults.textModelUrl());
        Path cache = cacheDir != null ? cacheDir : fromEnv(env, "GPUPIPE_CACHE_DIR", Path::of)
                .orElse(defaults.cacheDir());
        Backend chosen = backend != null ? backend : modelServerUrl != null ? Backend.OPENAI : Backend.EMBEDDED;
        if (chosen == Backend.OPENAI && modelServerUrl == null) {
            throw new BadFlagException("--backend openai needs --model-server-url URL of an OpenAI-compatible "
                    + "server (e.g. http://localhost:8000 for vLLM)");
        }
        if (chosen == Backend.EMBEDDED && modelServerUrl != null) {
            throw new BadFlagException("--model-server-url applies only to --backend openai; drop one of them");
        }
        if (chosen == Backend.OPENAI && (model != null || downloadTextModel)) {
            throw new BadFlagException("--text-model and --download-text-model apply only to --backend embedded "
                    + "(with openai the model server holds the model)");
        }
        if (model != null && downloadTextModel) {
            throw new BadFlagException("--text-model and --download-text-model both given; use one of them");
        }
        return new LaunchOptions(or(apiPort, defaults.apiPort()), or(sqsPort, defaults.sqsPort()),
                or(s3Port, defaults.s3Port()), or(data, defaults.dataDir()), model, downloadTextModel, modelUrl,
                or(textModelSha256, defaults.textModelSha256()), cache, chosen, modelServerUrl,
                or(workers, defaults.workers()), or(metricInterval, defaults.metricInterval()), defaults.repo(),
                or(routerConcurrency, defaults.routerConcurrency()),
                traceFile != null ? traceFile.toAbsolutePath() : defaults.traceFile(), console,
                requireToken || defaults.requireToken(), or(awsLatency, defaults.awsLatency()));
    }

    private static URI envUrl(String value) {
        try {
            return url(value);
        } catch (BadValueException e) {
            throw new BadFlagException("GPUPIPE_TEXT_MODEL_URL " + e.getMessage());
        }
    }

    private static <T> T or(T given, T otherwise) {
        return given != null ? given : otherwise;
    }

    private static <T> Optional<T> fromEnv(Map<String, String> env, String name, Function<String, T> read) {
        return Optional.ofNullable(env.get(name)).filter(s -> !s.isBlank()).map(read);
    }

    /** An http(s) URL with a host; {@code what} names the flag or variable in the problem. */
    private static URI url(String value) {
        try {
            URI uri = new URI(value.strip());
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new BadValueException("must be an http(s) URL such as http://localhost:8000, got '" + value + "'");
    }

    private static int wholeNumber(String value, int min, int max, String problem) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadValueException(problem + ", got '" + value + "'");
    }

    static final class PortConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return wholeNumber(value, 0, 65_535, "must be a port number from 1 to 65535 (0 = any free port)");
        }
    }

    static final class SecondsConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Duration.ofSeconds(wholeNumber(value, 1, Integer.MAX_VALUE,
                    "must be a positive whole number of seconds"));
        }
    }

    static final class EnvironmentsConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return wholeNumber(value, 1, LaunchOptions.MAX_ROUTER_CONCURRENCY, "must be a whole number from 1 to "
                    + LaunchOptions.MAX_ROUTER_CONCURRENCY);
        }
    }

    static final class AwsLatencyConverter implements ITypeConverter<AwsLatency> {
        @Override
        public AwsLatency convert(String value) {
            try {
                return AwsLatency.parse(value);
            } catch (IllegalArgumentException e) {
                throw new BadValueException("must be like s3=20ms,sqs=10ms: " + e.getMessage());
            }
        }
    }

    static final class UrlConverter implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            return url(value);
        }
    }

    static final class Sha256Converter implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String hex = value.strip().toLowerCase(Locale.ROOT);
            if (!hex.matches("[0-9a-f]{64}")) {
                throw new BadValueException("must be 64 hexadecimal digits, got '" + value + "'");
            }
            return hex;
        }
    }

    static final class BackendConverter implements ITypeConverter<Backend> {
        @Override
        public Backend convert(String value) {
            return Backend.fromWireName(value.toLowerCase(Locale.ROOT)).orElseThrow(() ->
                    new BadValueException("must be embedded or openai, got '" + value + "'"));
        }
    }

    static final class TiersConverter implements ITypeConverter<Set<Tier>> {
        @Override
        public Set<Tier> convert(String value) {
            Set<Tier> tiers = new LinkedHashSet<>();
            if ("none".equals(value.strip())) {
                return tiers;
            }
            TierCatalogue catalogue = TierCatalogue.bundled();
            for (String name : value.split(",")) {
                tiers.add(catalogue.find(name.strip()).orElseThrow(() -> new BadValueException(
                        "takes a comma-separated list of " + catalogue.describeNames() + ", or none; got '" + value
                                + "'")));
            }
            return tiers;
        }
    }

    /** What {@code --help} lists for {@code --workers}: the catalogue's tiers, or none. */
    static final class WorkerChoices implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of(TierCatalogue.bundled().names().stream().map(Tier::wireName)
                    .collect(Collectors.joining(",")) + " | none").iterator();
        }
    }
}
