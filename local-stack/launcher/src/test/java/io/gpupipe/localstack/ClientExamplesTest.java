package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gpupipe.examples.GpupipeClient;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.localstack.apigateway.LocalIamPrincipals;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.Tier;
import io.gpupipe.model.notify.CallbackKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The client examples in examples/ (Python, JavaScript, Java), each run as a user runs it against one started local
 * stack (a speech worker on FreeTTS, the cheapest tier; a caller required, so a bearer token or, for Python, the
 * SigV4 signature of a printed role session is what lets them in):
 * each submits a speech job, polls it to {@code succeeded}, fetches the result through its presigned link, and
 * receives and verifies the Standard Webhooks callback with the local secret's {@code whsec_} form. A runtime that is
 * absent (python3, node/npm, or an npm install that fails offline) skips its case with the reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientExamplesTest {
    private static final Duration RUN_LIMIT = Duration.ofMinutes(4);
    private static final Duration INSTALL_LIMIT = Duration.ofMinutes(5);

    private LocalStack stack;
    private String token;
    private String whsec;

    @BeforeAll
    void start() throws IOException {
        RequiredPackages.assertBuilt();
        LaunchOptions options = LaunchOptions.defaults(TestPaths.repo(), Files.createTempDirectory("gpupipe-examples-"))
                .withFreePorts().withWorkers(Set.of(Tier.of("speech"))).withConsole(false).withRequireToken(true);
        stack = StackAssembler.start(options, new Console(System.out));
        assumeTrue(stack.functions().notifier().isPresent(),
                "skipped: functions/result-notifier/target/function.zip not built");
        token = stack.callers().token(LocalCallers.CALLER_A);
        whsec = CallbackKey.of(ComponentEnvironment.CALLBACK_SECRET).whsec();
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    /**
     * The SigV4 callers' checks ({@link SigV4Callers}) on this class's stack: they need these very options, and a
     * stack start of their own cost about 50 s of the build's launcher tests.
     */
    @Nested
    class SigV4CallerTest extends SigV4Callers {
        @Override
        LocalStack stack() {
            return stack;
        }
    }

    @Test
    void pythonExample_shouldSubmitPollFetchAndVerifyTheCallback() throws Exception {
        assumeTrue(runs(List.of("python3", "--version")), "skipped: python3 is not installed");

        Run run = run(List.of("python3", "gpupipe_client.py"), examples("python"), exampleArgs(), Map.of());

        assertThat(run.exit()).as(run.output()).isZero();
        assertCompleted(run.output(), "verified=true");
    }

    @Test
    void pythonExample_shouldCallTheLocalApi_withSigV4AsAPrintedRoleSession() throws Exception {
        assumeTrue(runs(List.of("python3", "-c", "import botocore")), "skipped: python3 with botocore is not there");
        LocalIamPrincipals.Principal session = stack.callers().principals().all().get(1);

        Run run = run(List.of("python3", "gpupipe_client.py", "--sigv4", "--region", LocalAws.REGION),
                examples("python"), exampleArgs(null), credentials(session));

        assertThat(run.exit()).as(run.output()).isZero();
        assertCompleted(run.output(), "verified=true");
    }

    @Test
    void pythonExample_shouldBeRefused403_whenItSignsForAnotherRegion() throws Exception {
        assumeTrue(runs(List.of("python3", "-c", "import botocore")), "skipped: python3 with botocore is not there");

        Run run = run(List.of("python3", "gpupipe_client.py", "--api", stack.apiUri().toString(), "--sigv4",
                "--region", "eu-west-1"), examples("python"), List.of(), credentials(stack.callers().principals()
                .all().get(0)));

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("submit: HTTP 403 {\"message\":\"Forbidden\"}");
    }

    /** The environment that makes {@code session} the credentials of the AWS SDKs' default chain. */
    private static Map<String, String> credentials(LocalIamPrincipals.Principal session) {
        return Map.of("AWS_ACCESS_KEY_ID", session.accessKeyId(), "AWS_SECRET_ACCESS_KEY", session.secretAccessKey(),
                "AWS_SESSION_TOKEN", session.sessionToken());
    }

    @Test
    void javascriptExample_shouldSubmitPollFetchAndVerifyTheCallback() throws Exception {
        assumeTrue(runs(List.of("node", "--version")) && runs(List.of("npm", "--version")),
                "skipped: node or npm is not installed");
        Path home = Path.of("target/client-example-js").toAbsolutePath();
        Files.createDirectories(home);
        for (String file : List.of("package.json", "package-lock.json", "gpupipe-client.js")) {
            Files.copy(examples("javascript").resolve(file), home.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        // The bearer path needs only standardwebhooks: the SigV4 signer and the AWS credential chain are optional
        // dependencies (about 80 packages, minutes of npm ci on a fresh machine), left out as a token user may.
        if (!Files.isDirectory(home.resolve("node_modules/standardwebhooks"))) {
            Run install = run(List.of("npm", "ci", "--omit=optional", "--no-audit", "--no-fund"), home, List.of(),
                    Map.of(), INSTALL_LIMIT);
            assumeTrue(install.exit() == 0, () -> "skipped: npm ci of the JavaScript example failed (offline?): "
                    + install.output());
        }

        Run run = run(List.of("node", "gpupipe-client.js"), home, exampleArgs(), Map.of());

        assertThat(run.exit()).as(run.output()).isZero();
        assertCompleted(run.output(), "verified=true");
    }

    @Test
    void javaExample_shouldSubmitPollFetchAndVerifyTheCallback() throws Exception {
        ByteArrayOutputStream output = new ByteArrayOutputStream();

        int exit = GpupipeClient.run(exampleArgs().toArray(String[]::new),
                new PrintStream(output, true, StandardCharsets.UTF_8));

        String text = output.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isZero();
        assertCompleted(text, "verified=true");
    }

    /** What every example printed on its way: accepted, succeeded, the result fetched, the callback verified. */
    private static void assertCompleted(String output, String verified) {
        assertThat(output).contains("submit: HTTP 202").contains("status=succeeded")
                .contains("result: HTTP 200 {").contains("\"status\":\"succeeded\"")
                .containsPattern("callback: webhook-id=msg_[0-9a-f]{32} " + verified);
    }

    private List<String> exampleArgs() throws IOException {
        return exampleArgs(token);
    }

    /** The example's arguments, with {@code bearer} as its token (null: none, it signs or is anonymous). */
    private List<String> exampleArgs(String bearer) throws IOException {
        List<String> args = new ArrayList<>(List.of("--api", stack.apiUri().toString()));
        if (bearer != null) {
            args.addAll(List.of("--token", bearer));
        }
        args.addAll(List.of("--callback-port", Integer.toString(freePort()), "--webhook-secret", whsec, "--timeout",
                Long.toString(RUN_LIMIT.toSeconds() - 30)));
        return args;
    }

    private static Path examples(String language) {
        return TestPaths.repo().resolve("examples").resolve(language);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private record Run(int exit, String output) {
    }

    private static Run run(List<String> command, Path directory, List<String> args, Map<String, String> env)
            throws IOException, InterruptedException {
        return run(command, directory, args, env, RUN_LIMIT);
    }

    private static Run run(List<String> command, Path directory, List<String> args, Map<String, String> env,
                           Duration limit) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(command);
        full.addAll(args);
        Path log = Files.createTempFile("gpupipe-example-", ".log");
        ProcessBuilder builder = new ProcessBuilder(full).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        boolean done = process.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
        if (!done) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        return new Run(done ? process.exitValue() : -1, done ? output : output + "\n(killed after " + limit + ")");
    }

    private static boolean runs(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
