package io.gpupipe.localstack;

import io.gpupipe.localstack.exception.StartupException;
import io.gpupipe.localstack.internal.Console;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Stops what a stack started. The assembler hands over each component as soon as it runs, so a failed or interrupted
 * start stops exactly what had started; {@link #close()} stops stage by stage in dependency order (the API first,
 * SQS/S3 and the run directory last) and, within a stage, in reverse start order. A component handed over after
 * {@link #close()} (a start that was still running when the stop came) is stopped at once.
 */
public final class StackCloser implements AutoCloseable {
    /** The stop order: nothing is stopped before what still calls it. */
    enum Stage {
        /** No new requests. */
        API(false, null),
        CONSOLE(false, null),
        SCHEDULE(false, null),
        /** In-flight jobs finish (or go back to their queue) while the functions and S3 still run. */
        WORKERS(true, "draining workers (SIGTERM; in-flight jobs finish or go back to the queue)"),
        /** The workers' last results are delivered to the notifier before it stops. */
        EVENTS(false, null),
        FUNCTIONS(false, null),
        STAND_INS(false, null),
        STORAGE(false, null),
        FILES(false, null);

        /** Whether the stage's components stop together (each worker drains up to its own limit). */
        private final boolean together;
        /** What the console says when the stage starts stopping something; null: nothing. */
        private final String announcement;

        Stage(boolean together, String announcement) {
            this.together = together;
            this.announcement = announcement;
        }
    }

    private final Console console;
    private final Map<Stage, Deque<Runnable>> stops = new EnumMap<>(Stage.class);
    private boolean closed;

    public StackCloser(Console console) {
        this.console = console;
    }

    /** Takes {@code component}, stopped by {@code stop} in {@code stage}; stops it at once when already closed. */
    synchronized <T> T add(Stage stage, T component, Consumer<? super T> stop) {
        if (closed) {
            stop.accept(component);
            throw stopped();
        }
        stops.computeIfAbsent(stage, s -> new ArrayDeque<>()).push(() -> stop.accept(component));
        return component;
    }

    /** Throws when a stop was asked for: a start that is still running gives up at its next step. */
    synchronized void ensureOpen() {
        if (closed) {
            throw stopped();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Stage stage : Stage.values()) {
            List<Runnable> inStage = List.copyOf(stops.getOrDefault(stage, new ArrayDeque<>()));
            if (inStage.isEmpty()) {
                continue;
            }
            if (stage.announcement != null) {
                console.info(stage.announcement);
            }
            (stage.together ? inStage.parallelStream() : inStage.stream()).forEach(stop -> stopQuietly(stage, stop));
        }
        stops.clear();
    }

    /** One failed stop must not leave the rest running. */
    private void stopQuietly(Stage stage, Runnable stop) {
        try {
            stop.run();
        } catch (RuntimeException e) {
            console.info("stopping the stack (" + stage.name().toLowerCase(Locale.ROOT) + "): " + e);
        }
    }

    private static StartupException stopped() {
        return new StartupException("stopped while starting");
    }
}
