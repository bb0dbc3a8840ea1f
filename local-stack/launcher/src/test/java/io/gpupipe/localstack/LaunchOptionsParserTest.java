package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.AwsLatency;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.model.Tier;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchOptionsParserTest {
    private static final LaunchOptions DEFAULTS = LaunchOptions.defaults(Path.of("/repo"), Path.of("/cache"));

    private static LaunchOptionsParser.Outcome parse(Map<String, String> env, String... args) {
        return new LaunchOptionsParser(DEFAULTS, env).parse(args);
    }

    private static LaunchOptions run(String... args) {
        LaunchOptionsParser.Outcome outcome = parse(Map.of(), args);
        assertThat(outcome).isInstanceOf(LaunchOptionsParser.Outcome.Run.class);
        return ((LaunchOptionsParser.Outcome.Run) outcome).options();
    }

    private static String invalid(String... args) {
        LaunchOptionsParser.Outcome outcome = parse(Map.of(), args);
        assertThat(outcome).isInstanceOf(LaunchOptionsParser.Outcome.Invalid.class);
        return ((LaunchOptionsParser.Outcome.Invalid) outcome).message();
    }

    @Test
    void parse_shouldGiveTheDocumentedDefaults_whenNoFlags() {
        // when
        LaunchOptions options = run();
        // then
        assertThat(options.apiPort()).isEqualTo(8080);
        assertThat(options.sqsPort()).isEqualTo(9324);
        assertThat(options.s3Port()).isEqualTo(9000);
        assertThat(options.dataDir()).isNull();
        assertThat(options.textModel()).isNull();
        assertThat(options.backend()).isEqualTo(Backend.EMBEDDED);
        assertThat(options.workers()).containsExactly(Tier.of("small"), Tier.of("large"), Tier.of("speech"),
                Tier.of("embed"));
        assertThat(options.metricInterval()).isEqualTo(Duration.ofSeconds(60));
        assertThat(options.routerConcurrency()).isEqualTo(16);
        assertThat(options.textModelSha256())
                .isEqualTo("270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d");
    }

    @Test
    void parse_shouldSetTheRouterEnvironments_whenRouterConcurrencyIsGiven() {
        assertThat(run("--router-concurrency", "4").routerConcurrency()).isEqualTo(4);
        assertThat(run("--router-concurrency=64").routerConcurrency()).isEqualTo(64);
    }

    @Test
    void parse_shouldAddAwsLatency_onlyWhenTheFlagGivesIt() {
        assertThat(run().awsLatency()).isEqualTo(AwsLatency.NONE);
        assertThat(run("--aws-latency", "s3=20ms,sqs=10ms").awsLatency())
                .isEqualTo(new AwsLatency(Duration.ofMillis(20), Duration.ofMillis(10)));
        assertThat(invalid("--aws-latency", "s3=20")).startsWith("--aws-latency must be like s3=20ms,sqs=10ms: ")
                .contains("\"s3=20\"");
    }

    @Test
    void parse_shouldNameTheRange_whenRouterConcurrencyIsOutOfIt() {
        assertThat(invalid("--router-concurrency", "0")).isEqualTo(
                "--router-concurrency must be a whole number from 1 to 64, got '0'");
        assertThat(invalid("--router-concurrency", "65")).contains("from 1 to 64");
        assertThat(invalid("--router-concurrency", "many")).contains("got 'many'");
    }

    @Test
    void parse_shouldTurnTheTraceFileOn_onlyWhenTheFlagNamesOne() {
        assertThat(run().traceFile()).isNull();
        assertThat(run("--trace-file", "traces.jsonl").traceFile())
                .isEqualTo(Path.of("traces.jsonl").toAbsolutePath());
        assertThat(run("--trace-file=/tmp/t.jsonl").traceFile()).isEqualTo(Path.of("/tmp/t.jsonl"));
        assertThat(invalid("--trace-file")).contains("--trace-file needs a value");
    }

    @Test
    void parse_shouldReadEveryFlag_whenGivenWithSpaceOrEquals() {
        // when
        LaunchOptions options = run("--api-port", "8081", "--sqs-port=9325", "--s3-port", "9001", "--data", "d",
                "--text-model", "m.gguf", "--workers", "small", "--metric-interval", "5", "--cache-dir", "c");
        // then
        assertThat(options.apiPort()).isEqualTo(8081);
        assertThat(options.sqsPort()).isEqualTo(9325);
        assertThat(options.s3Port()).isEqualTo(9001);
        assertThat(options.dataDir()).isEqualTo(Path.of("d"));
        assertThat(options.textModel()).isEqualTo(Path.of("m.gguf"));
        assertThat(options.workers()).containsExactly(Tier.of("small"));
        assertThat(options.metricInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.cacheDir()).isEqualTo(Path.of("c"));
    }

    @Test
    void parse_shouldTakeTheTextModelFromTheEnvironment_whenNoFlag() {
        // when
        var outcome = parse(Map.of("GPUPIPE_TEXT_MODEL", "/models/x.gguf"));
        // then
        assertThat(((LaunchOptionsParser.Outcome.Run) outcome).options().textModel())
                .isEqualTo(Path.of("/models/x.gguf"));
    }

    @Test
    void parse_shouldPreferTheFlag_whenFlagAndEnvironmentBothNameAModel() {
        // when
        var outcome = parse(Map.of("GPUPIPE_TEXT_MODEL", "/env.gguf"), "--text-model", "/flag.gguf");
        // then
        assertThat(((LaunchOptionsParser.Outcome.Run) outcome).options().textModel()).isEqualTo(Path.of("/flag.gguf"));
    }

    @Test
    void parse_shouldChooseOpenai_whenOnlyAModelServerUrlIsGiven() {
        // when
        LaunchOptions options = run("--model-server-url", "http://localhost:8000");
        // then
        assertThat(options.backend()).isEqualTo(Backend.OPENAI);
        assertThat(options.modelServerUrl()).isEqualTo(URI.create("http://localhost:8000"));
    }

    @Test
    void parse_shouldAskForHelp_whenHelpFlag() {
        assertThat(parse(Map.of(), "--api-port", "1", "--help")).isInstanceOf(LaunchOptionsParser.Outcome.Help.class);
        assertThat(parse(Map.of(), "-h")).isInstanceOf(LaunchOptionsParser.Outcome.Help.class);
    }

    @Test
    void usage_shouldListEveryFlagWithItsDefault_generatedFromTheDeclarations() {
        // when
        String usage = LaunchOptionsParser.usage();
        // then
        assertThat(usage).contains("-Dlocal-stack.args", "--api-port=N", "[8080]", "--sqs-port=N", "[9324]",
                "--s3-port=N", "[9000]", "--data=DIR", "--text-model=PATH", "[$GPUPIPE_TEXT_MODEL]",
                "--download-text-model", "--text-model-url=URL", "--text-model-sha256=HEX", "--cache-dir=DIR",
                "--backend=NAME", "--model-server-url=URL", "--workers=LIST", "small,large,speech,embed | none",
                "--metric-interval=SECS", "[60]", "--router-concurrency=N", "1-64) [16]", "--trace-file=FILE",
                "--[no-]console", "-h, --help", "Ctrl-C drains the workers");
        assertThat(((LaunchOptionsParser.Outcome.Help) parse(Map.of(), "--help")).usage()).isEqualTo(usage);
    }

    @Test
    void parse_shouldServeTheConsole_unlessNoConsole() {
        assertThat(run().console()).isTrue();
        assertThat(run("--no-console").console()).isFalse();
        assertThat(run("--console").console()).isTrue();
    }

    @Test
    void parse_shouldNameTheFlagAndTheFix_whenFlagIsUnknown() {
        assertThat(invalid("--port", "1")).isEqualTo("unknown flag --port; run with --help to list the flags");
    }

    @Test
    void parse_shouldNameTheRange_whenPortIsNotANumber() {
        assertThat(invalid("--api-port", "http")).contains("--api-port must be a port number from 1 to 65535")
                .contains("'http'");
        assertThat(invalid("--s3-port", "70000")).contains("--s3-port must be a port number");
    }

    @Test
    void parse_shouldSayAValueIsMissing_whenFlagEndsTheLine() {
        assertThat(invalid("--data")).isEqualTo("--data needs a value; run with --help to see it");
        assertThat(invalid("--data", "--api-port", "1")).startsWith("--data needs a value");
    }

    @Test
    void parse_shouldRefuseOpenaiWithoutAServer_whenBackendOpenai() {
        assertThat(invalid("--backend", "openai")).startsWith("--backend openai needs --model-server-url URL");
    }

    @Test
    void parse_shouldRefuseAnUnknownBackend_whenMisspelled() {
        assertThat(invalid("--backend", "vllm")).isEqualTo("--backend must be embedded or openai, got 'vllm'");
    }

    @Test
    void parse_shouldRefuseConflictingModelFlags_whenBothGiven() {
        assertThat(invalid("--text-model", "a.gguf", "--download-text-model")).contains("use one of them");
        assertThat(invalid("--backend", "embedded", "--model-server-url", "http://x:1"))
                .contains("applies only to --backend openai");
    }

    @Test
    void parse_shouldRefuseABadWorkerList_whenTierUnknown() {
        assertThat(invalid("--workers", "small,medium")).contains("--workers takes a comma-separated list of small, large, speech, embed, or none; got 'small,medium'");
        assertThat(run("--workers", "none").workers()).isEmpty();
    }

    @Test
    void parse_shouldRefuseABadChecksum_whenNotSha256Hex() {
        assertThat(invalid("--text-model-sha256", "abc")).contains("64 hexadecimal digits");
    }

    @Test
    void parse_shouldIgnoreBlankArguments_whenMavenPassesAnEmptyProperty() {
        assertThat(run("", " ").apiPort()).isEqualTo(8080);
    }
}
