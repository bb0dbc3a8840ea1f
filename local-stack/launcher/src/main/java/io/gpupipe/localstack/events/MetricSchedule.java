package io.gpupipe.localstack.events;

import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.FunctionInvoker;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.model.JobJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The EventBridge schedule {@code rate(1 minute)}: invokes the scaling-metric function with a Scheduled Event. */
public final class MetricSchedule implements AutoCloseable {
    public static final String RULE_NAME = "gpupipe-scaling-metric-every-minute";

    private final FunctionInvoker function;
    private final Console console;
    private final AtomicLong runs = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "metric-schedule");
        t.setDaemon(true);
        return t;
    });

    private MetricSchedule(FunctionInvoker function, Console console) {
        this.function = function;
        this.console = console;
    }

    /** Fires first after {@code firstDelay}, then every {@code interval}. */
    public static MetricSchedule start(FunctionInvoker function, Duration firstDelay, Duration interval,
                                       Console console) {
        MetricSchedule schedule = new MetricSchedule(function, console);
        schedule.timer.scheduleAtFixedRate(schedule::fire, firstDelay.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return schedule;
    }

    private void fire() {
        byte[] event = JobJson.write(AwsEvents.scheduled(RULE_NAME, Instant.now())).getBytes(StandardCharsets.UTF_8);
        try {
            LambdaFunction.Invocation result = function.invoke(event);
            runs.incrementAndGet();
            if (!result.ok()) {
                console.component("schedule", "the scaling-metric function failed: "
                        + new String(result.payload(), StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            console.component("schedule", "cannot invoke the scaling-metric function: " + e.getMessage());
        }
    }

    /** Completed invocations so far. */
    public long runs() {
        return runs.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
