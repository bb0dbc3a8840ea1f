package io.gpupipe.localstack.internal;

import io.gpupipe.localstack.exception.StartupException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One child process of the stack: its output (stdout and stderr merged) goes line by line to the console prefixed
 * with its name; its stdin stays open as a lifeline (the child exits when it closes, i.e. when the launcher dies).
 */
public final class ChildProcess {
    private static final int TAIL_LINES = 30;

    private final String name;
    private final Process process;
    private final Deque<String> tail = new ArrayDeque<>();
    private final CompletableFuture<String> marker = new CompletableFuture<>();
    private final Predicate<String> markerLine;
    private volatile boolean stopping;

    private ChildProcess(String name, Process process, Predicate<String> markerLine) {
        this.name = name;
        this.process = process;
        this.markerLine = markerLine;
    }

    /** Starts {@code command}; {@code markerLine} picks the line that {@link #marker()} completes with. */
    public static ChildProcess start(String name, List<String> command, Map<String, String> env, Path workDir,
                                     Console console, Predicate<String> markerLine) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        try {
            ChildProcess child = new ChildProcess(name, builder.start(), markerLine);
            child.pump(console);
            return child;
        } catch (IOException e) {
            throw new StartupException("cannot start " + name + " (" + e.getMessage() + "): is `java` runnable?", e);
        }
    }

    private void pump(Console console) {
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    remember(line);
                    if (!marker.isDone() && markerLine.test(line)) {
                        marker.complete(line);
                    }
                    console.component(name, line);
                }
            } catch (IOException e) {
                // the process is gone
            }
            marker.completeExceptionally(new IllegalStateException(name + " exited before it was ready"));
        }, name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    private synchronized void remember(String line) {
        if (tail.size() == TAIL_LINES) {
            tail.removeFirst();
        }
        tail.addLast(line);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public boolean isStopping() {
        return stopping;
    }

    /** The exit code once the process has ended. */
    public int exitValue() {
        return process.exitValue();
    }

    public CompletableFuture<Integer> onExit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /** Completes with the first output line matching the marker predicate (or fails when the process exits). */
    public CompletableFuture<String> marker() {
        return marker;
    }

    /** The last lines of output, for error messages. */
    public synchronized List<String> tail() {
        return List.copyOf(tail);
    }

    /** SIGTERM (the child's shutdown hooks run: workers drain), wait up to {@code grace}, then SIGKILL. */
    public boolean stop(Duration grace) {
        stopping = true;
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        try {
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        return false;
    }

    /** SIGKILL without waiting (the launcher is going down hard). */
    public void kill() {
        stopping = true;
        process.destroyForcibly();
    }
}
