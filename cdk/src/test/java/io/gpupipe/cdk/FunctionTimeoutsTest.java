package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every function's AWS SDK clients carry explicit API-call time limits ({@code quarkus.<service>.api-call-timeout},
 * {@code api-call-attempt-timeout}) that end each call before the function's Lambda Timeout in sam-template.yaml,
 * so an SDK retry can never run past the invocation (and the router's worst case, a resubmission's 5 sequential
 * calls, fits its 15 s).
 */
class FunctionTimeoutsTest {
    /**
     * The router's longest sequences: a resubmission (create marker, read marker, read result, rewrite marker, send)
     * and a batch's status (read record, list ended chunks, list progress, read terminal record), 5 and 4 calls. A
     * result cache hit makes 4 (create marker, read entry, copy audio, write result), a miss 3 or 4 (create marker,
     * read entry, [claim-check payload,] send): the look-up happens only after a new marker, never on a resubmission.
     */
    private static final int ROUTER_SEQUENTIAL_CALLS = 5;
    private static final Pattern FUNCTION = Pattern.compile(
            "\\n  (\\w+):\\n    Type: AWS::Serverless::Function\\n((?:    .*\\n|\\n)*)");
    private static final Pattern CODE_URI = Pattern.compile("CodeUri: functions/([\\w-]+)/target/function.zip");
    private static final Pattern TIMEOUT = Pattern.compile("\\n      Timeout: (\\d+)\\n");
    private static final Pattern CLIENT = Pattern.compile("quarkus\\.(\\w+)\\.sync-client\\.type");
    private static Map<String, Duration> lambdaTimeouts;

    @BeforeAll
    static void readTemplate() throws IOException {
        String template = Files.readString(Path.of("..", "sam-template.yaml"));
        lambdaTimeouts = new LinkedHashMap<>();
        Matcher function = FUNCTION.matcher(template);
        while (function.find()) {
            Matcher module = CODE_URI.matcher(function.group(2));
            Matcher timeout = TIMEOUT.matcher(function.group(2));
            assertThat(module.find()).as(function.group(1) + " CodeUri").isTrue();
            assertThat(timeout.find()).as(function.group(1) + " Timeout").isTrue();
            lambdaTimeouts.put(module.group(1), Duration.ofSeconds(Long.parseLong(timeout.group(1))));
        }
    }

    @Test
    void apiCallTimeouts_shouldEndEveryCallBeforeTheLambdaTimeout_forEveryFunctionInTheTemplate() throws IOException {
        assertThat(lambdaTimeouts).containsKeys("router", "result-notifier", "scaling-metric", "repair-logger",
                "dead-letter", "batch");
        for (Map.Entry<String, Duration> function : lambdaTimeouts.entrySet()) {
            Properties properties = properties(function.getKey());
            Set<String> services = services(properties);
            assertThat(services).as(function.getKey() + " uses Quarkus-managed AWS clients").isNotEmpty();
            for (String service : services) {
                String prefix = function.getKey() + ": quarkus." + service + ".";
                Duration call = duration(properties, "quarkus." + service + ".api-call-timeout");
                Duration attempt = duration(properties, "quarkus." + service + ".api-call-attempt-timeout");
                assertThat(call).as(prefix + "api-call-timeout").isNotNull().isLessThan(function.getValue());
                assertThat(attempt).as(prefix + "api-call-attempt-timeout").isNotNull().isLessThanOrEqualTo(call);
            }
        }
    }

    @Test
    void managedClients_shouldIncludeSecretsManager_inTheResultNotifier() throws IOException {
        // the callback signing key's client is Quarkus-managed, so the test above checks its time limits too
        assertThat(services(properties("result-notifier"))).contains("s3", "sns", "sqs", "secretsmanager");
    }

    @Test
    void routerCalls_shouldAllFitTheRouterTimeout_whenAResubmissionMakesItsSequentialCalls() throws IOException {
        Properties router = properties("router");
        Duration slowest = services(router).stream()
                .map(service -> duration(router, "quarkus." + service + ".api-call-timeout"))
                .max(Duration::compareTo).orElseThrow();
        assertThat(slowest.multipliedBy(ROUTER_SEQUENTIAL_CALLS)).isLessThan(lambdaTimeouts.get("router"));
    }

    private static Properties properties(String module) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("..", "functions", module, "src", "main", "resources",
                "application.properties"))) {
            properties.load(reader);
        }
        return properties;
    }

    private static Set<String> services(Properties properties) {
        Set<String> services = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            Matcher client = CLIENT.matcher(key);
            if (client.matches()) {
                services.add(client.group(1));
            }
        }
        return services;
    }

    /** A Quarkus duration: {@code 2500ms}, {@code 5s}, {@code 1m} (or an ISO-8601 {@code PT…}). */
    private static Duration duration(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null) {
            return null;
        }
        if (value.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
        }
        return value.startsWith("PT") ? Duration.parse(value) : Duration.parse("PT" + value.toUpperCase());
    }
}
