package io.gpupipe.localstack.internal;

import io.gpupipe.localstack.child.Supervised;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.model.Tier;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One gpu-worker (an ECS task in AWS) as a child process: {@code java -jar quarkus-run.jar} with its configuration in
 * environment variables, as the task definition passes it, run under {@link Supervised} so it exits with the
 * launcher. Ready when {@code /q/health/ready} answers 200 (model loaded, warm-up inference done).
 *
 * <p>The worker binds any free port ({@code QUARKUS_HTTP_PORT=0}) and the launcher reads it from Quarkus's
 * {@code Listening on: http://HOST:PORT} start-up line: a port picked here and bound by the child seconds later, after
 * its JVM started, could be taken in between by anything else on the machine.
 */
public final class WorkerProcess {
    /** The main class named by quarkus-run.jar's manifest. */
    static final String QUARKUS_MAIN = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";
    /** Quarkus's start-up line naming the HTTP server's address (plain or JSON log format alike). */
    static final Pattern LISTENING = Pattern.compile("Listening on: http://[^\\s:/]+:(\\d+)");

    private final Tier tier;
    private final ChildProcess process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private WorkerProcess(Tier tier, ChildProcess process) {
        this.tier = tier;
        this.process = process;
    }

    public static String name(Tier tier) {
        return "worker-" + tier.wireName();
    }

    public static WorkerProcess start(Tier tier, Path runnerJar, Path childClasses, Map<String, String> env,
                                      Path workDir, Console console) {
        List<String> command = List.of(JavaCommand.java(), "-Xmx768m",
                "-cp", runnerJar + File.pathSeparator + childClasses,
                Supervised.class.getName(), QUARKUS_MAIN);
        ChildProcess child = ChildProcess.start(name(tier), command, env, workDir, console,
                line -> LISTENING.matcher(line).find());
        return new WorkerProcess(tier, child);
    }

    public Tier tier() {
        return tier;
    }

    public ChildProcess process() {
        return process;
    }

    /**
     * The readiness endpoint, once the worker has said which port it listens on (the web console reads the worker's
     * phase and window from its answer, as ECS reads its status).
     */
    public Optional<URI> healthUri() {
        CompletableFuture<String> listening = process.marker();
        if (!listening.isDone() || listening.isCompletedExceptionally()) {
            return Optional.empty();
        }
        Matcher m = LISTENING.matcher(listening.join());
        return m.find() ? Optional.of(URI.create("http://127.0.0.1:" + m.group(1) + "/q/health/ready"))
                : Optional.empty();
    }

    /**
     * Polls readiness until UP, printing a progress line every {@code progressEvery}; fails with the worker's last
     * output line when it exits, or when {@code limit} passes.
     */
    public void awaitReady(Duration limit, Duration progressEvery, Console console) {
        long start = System.nanoTime();
        long nextProgress = start + progressEvery.toNanos();
        while (true) {
            if (!process.isAlive()) {
                List<String> tail = process.tail();
                throw new StartupException(name(tier) + " exited with code " + process.exitValue()
                        + " while starting (see its [" + name(tier) + "] lines above)"
                        + (tail.isEmpty() ? "" : ": " + tail.get(tail.size() - 1)));
            }
            if (isReady()) {
                return;
            }
            long now = System.nanoTime();
            if (now - start > limit.toNanos()) {
                throw new StartupException(name(tier) + " was not ready within " + limit.toSeconds() + " s ("
                        + healthUri().map(URI::toString).orElse("no HTTP port announced yet") + "); see its ["
                        + name(tier) + "] lines above");
            }
            if (now >= nextProgress) {
                console.info(name(tier) + ": still starting (loading models, warm-up inference) after "
                        + Duration.ofNanos(now - start).toSeconds() + " s");
                nextProgress = now + progressEvery.toNanos();
            }
            sleep(250);
        }
    }

    private boolean isReady() {
        Optional<URI> health = healthUri();
        if (health.isEmpty()) {
            return false;
        }
        try {
            HttpResponse<Void> response = http.send(HttpRequest.newBuilder(health.get())
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while waiting for " + name(tier), e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted", e);
        }
    }

    /** SIGTERM: the worker stops receiving, finishes or releases its in-flight jobs, then exits. */
    public boolean stop(Duration grace) {
        return process.stop(grace);
    }
}
