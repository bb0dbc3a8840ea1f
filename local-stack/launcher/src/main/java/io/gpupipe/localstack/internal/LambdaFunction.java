package io.gpupipe.localstack.internal;

import io.gpupipe.localstack.child.LambdaHost;
import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localaws.LocalAws;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A Lambda function running from its deployment package in a {@link LambdaHost} child process, and the client of
 * its invoke API (the Lambda Runtime Interface Emulator's {@code POST /2015-03-31/functions/function/invocations}).
 */
public final class LambdaFunction implements FunctionInvoker {
    private static final Pattern READY = Pattern.compile(Pattern.quote(LambdaHost.READY_MARKER)
            + " port=(\\d+) init-ms=(\\d+)");

    /** How long a replacement execution environment may take to start. */
    private static final Duration RESPAWN_LIMIT = Duration.ofSeconds(90);

    private final String name;
    private final Supplier<ChildProcess> launcher;
    private final Console console;
    private final Duration timeout;
    private final HttpClient http;
    private volatile ChildProcess process;
    private volatile URI invokeUri;

    private LambdaFunction(String name, Supplier<ChildProcess> launcher, Duration timeout, Console console) {
        this.name = name;
        this.launcher = launcher;
        this.console = console;
        this.process = launcher.get();
        this.timeout = timeout;
        // named threads, so that a profile of the launcher tells the invoke client's work from the others'
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).executor(Executors.newCachedThreadPool(r -> {
                    Thread t = new Thread(r, name + "-invoke");
                    t.setDaemon(true);
                    return t;
                })).build();
    }

    /** What differs between functions: name, memory, timeout, handler class and the function's own variables. */
    public record Spec(String name, int memoryMb, Duration timeout, Map<String, String> environment,
                       String handler, int concurrency) {
        /** A Quarkus function (handler {@code QuarkusStreamHandler}, as every gpupipe function deploys). */
        public Spec(String name, int memoryMb, Duration timeout, Map<String, String> environment) {
            this(name, memoryMb, timeout, environment, LambdaHost.DEFAULT_HANDLER, 1);
        }

        /** The same function allowed {@code n} concurrent invocations (n execution environments). */
        public Spec withConcurrency(int n) {
            return new Spec(name, memoryMb, timeout, environment, handler, n);
        }
    }

    /** Starts the host process; call {@link #awaitReady(Duration)} before invoking. */
    public static LambdaFunction start(Spec spec, List<Path> packageClasspath, Path childClasses, Path workDir,
                                       Console console) {
        List<Path> classpath = new ArrayList<>(packageClasspath);
        classpath.add(childClasses);
        List<String> command = List.of(JavaCommand.java(),
                // The JVM settings of AWS's Java 17/21 runtimes: serial GC, and tiered compilation stopped at
                // level 1 (C1 only: "For Java 17 and Java 21, Lambda configures the JVM to stop tiered compilation
                // at level 1 by default", Lambda developer guide, "Customize Java runtime startup behavior").
                "-XX:+UseSerialGC", "-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1",
                // The functions' SDK clients use the JDK's HttpURLConnection, whose keep-alive cache holds 5 idle
                // connections per host. In AWS each execution environment is its own JVM with one invocation at a
                // time; here N environments share one JVM, so N concurrent calls to one endpoint would close and
                // reopen connections all the time (measured: 226 new connections per 4,000 SQS calls from 16
                // threads, 25 % more CPU on both sides). One idle connection per environment, as in AWS.
                "-Dhttp.maxConnections=" + Math.max(5, spec.concurrency()),
                "-Xmx" + Math.max(128, spec.memoryMb() / 2) + "m",
                "-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
                LambdaHost.class.getName(), "--name", spec.name(), "--port", "0", "--handler", spec.handler(),
                "--concurrency", Integer.toString(spec.concurrency()),
                "--memory-mb", Integer.toString(spec.memoryMb()),
                "--timeout-seconds", Long.toString(spec.timeout().toSeconds()));
        Map<String, String> env = new LinkedHashMap<>(lambdaEnvironment(spec, packageClasspath.get(0)));
        env.putAll(spec.environment());
        return new LambdaFunction(spec.name(), () -> ChildProcess.start(spec.name(), command, env, workDir, console,
                line -> line.startsWith(LambdaHost.READY_MARKER)), spec.timeout(), console);
    }

    /** The variables the Lambda service sets in every execution environment (credentials are the local ones). */
    private static Map<String, String> lambdaEnvironment(Spec spec, Path taskRoot) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_REGION", LocalAws.REGION);
        env.put("AWS_DEFAULT_REGION", LocalAws.REGION);
        env.put("AWS_ACCESS_KEY_ID", LocalAws.ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", LocalAws.SECRET_KEY);
        env.put("AWS_LAMBDA_FUNCTION_NAME", spec.name());
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(spec.memoryMb()));
        env.put("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + spec.name());
        env.put("LAMBDA_TASK_ROOT", taskRoot.toString());
        env.put("_HANDLER", spec.handler() + "::handleRequest");
        env.put("TZ", ":UTC");
        return env;
    }

    /** Waits for the host's ready line; fails with the host's last output lines when it dies first. */
    public void awaitReady(Duration limit) {
        try {
            String line = process.marker().get(limit.toMillis(), TimeUnit.MILLISECONDS);
            Matcher m = READY.matcher(line);
            if (!m.find()) {
                throw new StartupException(name + " printed an unexpected ready line: " + line);
            }
            invokeUri = URI.create("http://127.0.0.1:" + m.group(1) + LambdaHost.INVOKE_PATH_PREFIX
                    + "function/invocations");
        } catch (ExecutionException e) {
            throw new StartupException(name + " failed to start (see its [" + name + "] lines above): "
                    + lastLines(), e);
        } catch (TimeoutException e) {
            throw new StartupException(name + " did not start within " + limit.toSeconds() + " s; see its ["
                    + name + "] lines above", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("interrupted while starting " + name, e);
        }
    }

    private String lastLines() {
        List<String> tail = process.tail();
        return tail.isEmpty() ? "no output" : tail.get(tail.size() - 1);
    }

    public String name() {
        return name;
    }

    public URI invokeUri() {
        return invokeUri;
    }

    public ChildProcess process() {
        return process;
    }

    /** Invokes synchronously (RequestResponse); the timeout is the function's own plus a margin. */
    @Override
    public Invocation invoke(byte[] event) throws IOException {
        ensureRunning();
        HttpRequest request = HttpRequest.newBuilder(invokeUri)
                .timeout(timeout.plusSeconds(2))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(event)).build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            boolean functionError = response.headers().firstValue("X-Amz-Function-Error").isPresent();
            return new Invocation(response.statusCode() == 200 && !functionError, false, response.body());
        } catch (HttpTimeoutException e) {
            return new Invocation(false, true, "{\"errorMessage\":\"timed out\"}".getBytes(UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while invoking " + name, e);
        }
    }

    /**
     * Lambda replaces an execution environment whose runtime process exited (a crash, a fault hook that halts): the
     * next invocation gets a new one, with a cold start. Not while the stack is stopping the function.
     */
    private synchronized void ensureRunning() {
        ChildProcess current = process;
        if (current.isAlive() || current.isStopping()) {
            return;
        }
        console.info(name + " execution environment exited with code " + current.exitValue()
                + "; starting a new one for the next invocation");
        process = launcher.get();
        awaitReady(RESPAWN_LIMIT);
    }

    public void stop(Duration grace) {
        process.stop(grace);
    }
}
