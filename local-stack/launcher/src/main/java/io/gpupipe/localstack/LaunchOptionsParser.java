package io.gpupipe.localstack;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the command line (and {@code GPUPIPE_TEXT_MODEL}, {@code GPUPIPE_TEXT_MODEL_URL}, {@code GPUPIPE_CACHE_DIR}).
 * Never throws for bad input: an {@link Outcome.Invalid} carries one line naming the problem and the fix.
 */
public final class LaunchOptionsParser {

    public static final String USAGE = String.join("\n",
            "gpupipe local stack: the whole pipeline on this machine (SQS, S3, router, one worker per tier).",
            "",
            "Flags (pass them through Maven with -Dlocal-stack.args=\"...\"):",
            "  --api-port N             HTTP API (router) port                        [8080]",
            "  --sqs-port N             SQS endpoint (ElasticMQ) port                 [9324]",
            "  --s3-port N              S3 endpoint (S3Proxy) port                    [9000]",
            "                           (0 for any free port)",
            "  --data DIR               keep S3 objects on disk in DIR across restarts [in memory]",
            "  --text-model PATH        GGUF file for text jobs (embedded backend)    [$GPUPIPE_TEXT_MODEL]",
            "  --download-text-model    fetch the default small GGUF (TinyStories 260K) once into the cache,",
            "                           checked against its pinned SHA-256",
            "  --text-model-url URL     where --download-text-model fetches from      [$GPUPIPE_TEXT_MODEL_URL]",
            "  --text-model-sha256 HEX  the SHA-256 the download must have",
            "  --cache-dir DIR          download cache                 [$GPUPIPE_CACHE_DIR or ~/.cache/gpupipe]",
            "  --backend NAME           embedded (FreeTTS + llama.cpp, no GPU) or openai            [embedded]",
            "  --model-server-url URL   OpenAI-compatible server for --backend openai (vLLM, llama.cpp server)",
            "  --workers LIST           tiers that get a worker: any of "
                    + String.join(",", TierCatalogue.bundled().names().stream().map(Tier::wireName).toList())
                    + " | none",
            "                           [every tier]; run the others yourself, e.g. from your IDE",
            "  --metric-interval SECS   how often the scaling-metric function runs                     [60]",
            "  --router-concurrency N   router invocations at once (Lambda execution environments, 1-64) [16]",
            "  --trace-file FILE        every component appends its spans to FILE (JSON lines)         [off]",
            "  --help                   this text",
            "",
            "Ctrl-C drains the workers, stops everything and exits 0.");

    /** What the command line asks for. */
    public sealed interface Outcome {
        /** Start the stack with these options. */
        record Run(LaunchOptions options) implements Outcome {
        }

        /** Print {@link #USAGE} and exit 0. */
        record Help() implements Outcome {
        }

        /** Print the message and exit 2. */
        record Invalid(String message) implements Outcome {
        }
    }

    private final LaunchOptions defaults;
    private final Map<String, String> env;

    public LaunchOptionsParser(LaunchOptions defaults, Map<String, String> env) {
        this.defaults = defaults;
        this.env = env;
    }

    public Outcome parse(String... args) {
        try {
            return read(args);
        } catch (BadFlagException e) {
            return new Outcome.Invalid(e.getMessage());
        }
    }

    private Outcome read(String[] args) {
        var b = new Builder(defaults, env);
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.isBlank()) {
                continue;
            }
            String flag = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                flag = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            if ("--help".equals(flag) || "-h".equals(flag)) {
                return new Outcome.Help();
            }
            if ("--download-text-model".equals(flag)) {
                b.download = true;
                continue;
            }
            if (!b.knows(flag)) {
                throw new BadFlagException("unknown flag " + flag + "; run with --help to list the flags");
            }
            String value = inline;
            if (value == null) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    throw new BadFlagException(flag + " needs a value; run with --help to see it");
                }
                value = args[++i];
            }
            b.set(flag, value);
        }
        return new Outcome.Run(b.build());
    }

    /** A flag problem; its message is the one line shown to the user. */
    private static final class BadFlagException extends RuntimeException {
        BadFlagException(String message) {
            super(message);
        }
    }

    private static final class Builder {
        private static final Set<String> FLAGS = Set.of("--api-port", "--sqs-port", "--s3-port", "--data",
                "--text-model", "--text-model-url", "--text-model-sha256", "--cache-dir", "--backend",
                "--model-server-url", "--workers", "--metric-interval", "--router-concurrency", "--trace-file");

        private final LaunchOptions d;
        private int apiPort;
        private int sqsPort;
        private int s3Port;
        private Path data;
        private Path textModel;
        private boolean download;
        private URI textModelUrl;
        private String sha256;
        private Path cacheDir;
        private Backend backend;
        private URI modelServerUrl;
        private Set<Tier> workers;
        private Duration metricInterval;
        private int routerConcurrency;
        private Path traceFile;

        Builder(LaunchOptions d, Map<String, String> env) {
            this.d = d;
            apiPort = d.apiPort();
            sqsPort = d.sqsPort();
            s3Port = d.s3Port();
            data = d.dataDir();
            textModel = Optional.ofNullable(env.get("GPUPIPE_TEXT_MODEL")).filter(s -> !s.isBlank()).map(Path::of)
                    .orElse(d.textModel());
            textModelUrl = Optional.ofNullable(env.get("GPUPIPE_TEXT_MODEL_URL")).filter(s -> !s.isBlank())
                    .map(s -> uri("GPUPIPE_TEXT_MODEL_URL", s)).orElse(d.textModelUrl());
            sha256 = d.textModelSha256();
            cacheDir = Optional.ofNullable(env.get("GPUPIPE_CACHE_DIR")).filter(s -> !s.isBlank()).map(Path::of)
                    .orElse(d.cacheDir());
            backend = null;
            workers = d.workers();
            metricInterval = d.metricInterval();
            routerConcurrency = d.routerConcurrency();
            traceFile = d.traceFile();
        }

        boolean knows(String flag) {
            return FLAGS.contains(flag);
        }

        void set(String flag, String value) {
            switch (flag) {
                case "--api-port" -> apiPort = port(flag, value);
                case "--sqs-port" -> sqsPort = port(flag, value);
                case "--s3-port" -> s3Port = port(flag, value);
                case "--data" -> data = Path.of(value);
                case "--text-model" -> textModel = Path.of(value);
                case "--text-model-url" -> textModelUrl = uri(flag, value);
                case "--text-model-sha256" -> sha256 = sha256(value);
                case "--cache-dir" -> cacheDir = Path.of(value);
                case "--backend" -> backend = Backend.fromWireName(value.toLowerCase(Locale.ROOT)).orElseThrow(() ->
                        new BadFlagException("--backend must be embedded or openai, got '" + value + "'"));
                case "--model-server-url" -> modelServerUrl = uri(flag, value);
                case "--workers" -> workers = tiers(value);
                case "--metric-interval" -> metricInterval = Duration.ofSeconds(positive(flag, value));
                case "--router-concurrency" -> routerConcurrency = environments(flag, value);
                case "--trace-file" -> traceFile = Path.of(value).toAbsolutePath();
                default -> throw new BadFlagException("unknown flag " + flag + "; run with --help to list the flags");
            }
        }

        LaunchOptions build() {
            Backend chosen = backend != null ? backend : modelServerUrl != null ? Backend.OPENAI : Backend.EMBEDDED;
            if (chosen == Backend.OPENAI && modelServerUrl == null) {
                throw new BadFlagException("--backend openai needs --model-server-url URL of an OpenAI-compatible "
                        + "server (e.g. http://localhost:8000 for vLLM)");
            }
            if (chosen == Backend.EMBEDDED && modelServerUrl != null) {
                throw new BadFlagException("--model-server-url applies only to --backend openai; drop one of them");
            }
            if (chosen == Backend.OPENAI && (textModel != null || download)) {
                throw new BadFlagException("--text-model and --download-text-model apply only to --backend embedded "
                        + "(with openai the model server holds the model)");
            }
            if (textModel != null && download) {
                throw new BadFlagException("--text-model and --download-text-model both given; use one of them");
            }
            return new LaunchOptions(apiPort, sqsPort, s3Port, data, textModel, download, textModelUrl, sha256,
                    cacheDir, chosen, modelServerUrl, workers, metricInterval, d.repo(), routerConcurrency, traceFile);
        }

        private static int port(String flag, String value) {
            try {
                int port = Integer.parseInt(value.strip());
                if (port >= 0 && port <= 65_535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new BadFlagException(flag + " must be a port number from 1 to 65535 (0 = any free port), got '"
                    + value + "'");
        }

        private static int positive(String flag, String value) {
            try {
                int n = Integer.parseInt(value.strip());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new BadFlagException(flag + " must be a positive whole number of seconds, got '" + value + "'");
        }

        private static int environments(String flag, String value) {
            try {
                int n = Integer.parseInt(value.strip());
                if (n >= 1 && n <= LaunchOptions.MAX_ROUTER_CONCURRENCY) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new BadFlagException(flag + " must be a whole number from 1 to "
                    + LaunchOptions.MAX_ROUTER_CONCURRENCY + ", got '" + value + "'");
        }

        private static URI uri(String flag, String value) {
            try {
                URI uri = new URI(value.strip());
                if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                    return uri;
                }
            } catch (URISyntaxException e) {
                // reported below
            }
            throw new BadFlagException(flag + " must be an http(s) URL such as http://localhost:8000, got '"
                    + value + "'");
        }

        private static String sha256(String value) {
            String hex = value.strip().toLowerCase(Locale.ROOT);
            if (!hex.matches("[0-9a-f]{64}")) {
                throw new BadFlagException("--text-model-sha256 must be 64 hexadecimal digits, got '" + value + "'");
            }
            return hex;
        }

        private static Set<Tier> tiers(String value) {
            Set<Tier> tiers = new LinkedHashSet<>();
            if ("none".equals(value.strip())) {
                return tiers;
            }
            TierCatalogue catalogue = TierCatalogue.bundled();
            for (String name : value.split(",")) {
                tiers.add(catalogue.find(name.strip()).orElseThrow(() -> new BadFlagException(
                        "--workers takes a comma-separated list of " + catalogue.describeNames()
                                + ", or none; got '" + value + "'")));
            }
            return tiers;
        }
    }
}
