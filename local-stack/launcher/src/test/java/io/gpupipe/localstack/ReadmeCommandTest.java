package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the local-stack command exactly as README.md writes it (only the documented flag pass-through is added, asking
 * for any free ports), in a shell from the root of a fresh copy of the sources (what a newcomer's clone holds: no
 * build output), submits a speech job over HTTP, waits for its result, then
 * stops the launcher with SIGINT as Ctrl-C would (SIGTERM where the environment ignores SIGINT, as for background
 * jobs), and checks that everything exits and the command ends with 0.
 * If the README's command stops working, this test fails: it cannot silently rot.
 * <p>
 * The copy also keeps the command's build away from the build running this test: packaging empties and rewrites
 * every module's {@code target/quarkus-app}, which other test classes and modules running in parallel start from.
 */
class ReadmeCommandTest {
    @TempDir
    Path checkout;

    private static final Duration READY_LIMIT = Duration.ofMinutes(8);
    private static final Duration JOB_LIMIT = Duration.ofSeconds(90);
    private static final String READY_LINE = "[local-stack] ready";
    private static final String LAUNCHER_MAIN = "io.gpupipe.localstack.Launcher";
    private static final Pattern API_LINE = Pattern.compile("HTTP API \\(router\\)\\s+(http://\\S+)");

    /** The README's run command: the first {@code ./mvnw} line that selects the local-stack profile. */
    static String readmeCommand(Path readme) throws IOException {
        assertThat(readme).as("README.md at the repository root").isRegularFile();
        Optional<String> command = Files.readAllLines(readme).stream().map(String::strip)
                .map(line -> line.startsWith("$ ") ? line.substring(2).strip() : line)
                .filter(line -> line.startsWith("./mvnw") && line.contains("-Plocal-stack")).findFirst();
        return command.orElseGet(() -> fail(readme + " must give the local-stack run command (a line starting "
                + "with ./mvnw and containing -Plocal-stack)"));
    }

    @Test
    void readmeCommand_shouldStartTheStackServeAJobAndExit0OnSigint_whenRunAsWritten() throws Exception {
        // given
        Path repo = SourceCopy.of(TestPaths.repo(), checkout);
        Path readme = Path.of(System.getProperty("gpupipe.readme", repo.resolve("README.md").toString()));
        // Port 0: the launcher binds free ports itself. Ports picked here and bound a minute later, after the
        // command's build, can be taken in between by anything else on a shared CI host (the launcher then
        // rightly exits 2, "port ... already in use"); the banner says where the API is.
        String command = readmeCommand(readme) + " -Dlocal-stack.args='--api-port 0 --sqs-port 0 --s3-port 0'";
        System.out.println("README command under test: " + command);
        long started = System.nanoTime();
        Process maven = new ProcessBuilder("bash", "-c", command).directory(repo.toFile()).redirectErrorStream(true)
                .start();
        maven.getOutputStream().close();
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Thread reader = follow(maven, lines, ready);
        try {
            // when: it comes up
            ready.get(READY_LIMIT.toSeconds(), TimeUnit.SECONDS);
            System.out.printf("README command: ready %.1f s after it started (build included)%n",
                    (System.nanoTime() - started) / 1e9);
            ApiClient client = new ApiClient(apiUri(lines));
            String speech = UUID.randomUUID().toString();
            String text = UUID.randomUUID().toString();
            ApiClient.Reply submitted = client.submit("{\"requestId\":\"" + speech + "\",\"task\":\"speech\","
                    + "\"prompt\":\"The README command works.\"}");
            client.submit("{\"requestId\":\"" + text + "\",\"prompt\":\"Once upon a time\"}");
            JsonNode speechDone = client.awaitTerminal(speech, JOB_LIMIT);
            JsonNode textDone = client.awaitTerminal(text, JOB_LIMIT);
            // then
            assertThat(submitted.status()).isEqualTo(202);
            assertThat(speechDone.path("status").asText()).as(speechDone.toString()).isEqualTo("succeeded");
            assertThat(speechDone.path("result").path("result").path("audioKey").asText()).endsWith(".wav");
            assertThat(textDone.path("status").asText()).as("no text model is configured").isEqualTo("failed");
            assertThat(textDone.path("result").path("error").path("code").asText()).isEqualTo("model_unavailable");

            // when: Ctrl-C (SIGINT) reaches the launcher
            List<ProcessHandle> children = maven.descendants().toList();
            ProcessHandle launcher = children.stream().filter(p -> commandLine(p).contains(LAUNCHER_MAIN))
                    .findFirst().orElseGet(() -> fail("no launcher process under Maven"));
            String signal = ignoresSigint(launcher) ? "TERM" : "INT";
            System.out.println("stopping the launcher with SIG" + signal);
            new ProcessBuilder("kill", "-" + signal, Long.toString(launcher.pid())).start().waitFor();
            // then
            assertThat(maven.waitFor(3, TimeUnit.MINUTES)).as("the command ends after Ctrl-C").isTrue();
            reader.join(10_000);
            assertThat(maven.exitValue()).as(String.join("\n", tail(lines))).isZero();
            assertThat(lines).contains("[local-stack] stopped").anyMatch(l -> l.contains("BUILD SUCCESS"));
            assertThat(children).as("no child process outlives the launcher").noneMatch(ProcessHandle::isAlive);
        } finally {
            maven.descendants().forEach(ProcessHandle::destroyForcibly);
            maven.destroyForcibly();
        }
    }

    /** The HTTP API's address as the banner prints it ({@code HTTP API (router)    http://localhost:PORT  ...}). */
    private static URI apiUri(List<String> lines) {
        return lines.stream().map(API_LINE::matcher).filter(Matcher::find).map(m -> URI.create(m.group(1)))
                .findFirst().orElseGet(() -> fail("the banner names no HTTP API address:\n"
                        + String.join("\n", tail(lines))));
    }

    private static Thread follow(Process process, List<String> lines, CompletableFuture<Void> ready) {
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                    System.out.println("[readme-command] " + line);
                    if (line.startsWith(READY_LINE)) {
                        ready.complete(null);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
            ready.completeExceptionally(new AssertionError("the README command ended before the stack was ready ("
                    + launcherError(lines) + "):\n" + String.join("\n", tail(lines))));
        }, "readme-command-output");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    /**
     * True when the process was started with SIGINT ignored, as shells do for background jobs (the JVM then never
     * sees Ctrl-C); the test then stops it with SIGTERM, which the launcher handles the same way.
     */
    private static boolean ignoresSigint(ProcessHandle process) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring("SigIgn:".length()).strip(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }

    /** The full command line from /proc (ProcessHandle.Info may cut long ones, and ours has a long classpath). */
    private static String commandLine(ProcessHandle process) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return process.info().commandLine().orElse("");
        }
    }

    /**
     * The launcher's own one-line reason ({@code local-stack: ...} on stderr), for the first line of the failure:
     * a build summary shows only that line.
     */
    private static String launcherError(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("local-stack: ")).reduce((first, second) -> second)
                .orElse("no local-stack error line; last line: "
                        + (lines.isEmpty() ? "none" : lines.get(lines.size() - 1)));
    }

    private static List<String> tail(List<String> lines) {
        return lines.subList(Math.max(0, lines.size() - 40), lines.size());
    }
}
