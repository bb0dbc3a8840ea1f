package io.gpupipe.localstack.events;

import io.gpupipe.localaws.ObjectCreatedListener;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.localstack.internal.FunctionInvoker;
import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.sam.SamTemplate;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.batch.BatchLayout;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.ToLongBiFunction;

/**
 * S3 event notifications for the results bucket: every object written under {@code results/} ending in
 * {@code .json}, and every batch's {@code batches/{id}/final.json} (the deployment's two filters), becomes an {@code ObjectCreated:Put} event delivered to the result
 * notifier asynchronously, as S3 does, with Lambda's asynchronous retry policy (the template's MaximumRetryAttempts,
 * 2; here after 1 s and 2 s instead of 1 and 2 minutes).
 */
public final class S3EventDelivery implements ObjectCreatedListener, AutoCloseable {
    private final FunctionInvoker notifier;
    private final Predicate<String> keyFilter;
    private final ToLongBiFunction<String, String> sizeLookup;
    private final Console console;
    private final RetryPolicy retries;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "s3-event-delivery");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong sequence = new AtomicLong(System.currentTimeMillis() * 1000);
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /** {@code sizeLookup} answers an object's size when the put did not say it; Lambda's default 2 retries. */
    public S3EventDelivery(FunctionInvoker notifier, ToLongBiFunction<String, String> sizeLookup, Console console,
                           Duration retryDelay) {
        this(notifier, S3EventDelivery::matchesFilter, sizeLookup, console, SamTemplate.DEFAULT_ASYNC_RETRIES,
                retryDelay);
    }

    /**
     * Delivers the objects whose keys {@code keyFilter} passes (the template's notification filters), retrying a
     * failed invocation {@code asyncRetries} times (the function's MaximumRetryAttempts) after {@code retryDelay},
     * then twice that.
     */
    public S3EventDelivery(FunctionInvoker notifier, Predicate<String> keyFilter,
                           ToLongBiFunction<String, String> sizeLookup, Console console, int asyncRetries,
                           Duration retryDelay) {
        this.notifier = notifier;
        this.keyFilter = keyFilter;
        this.sizeLookup = sizeLookup;
        this.console = console;
        this.retries = RetryPolicy.exponential(asyncRetries + 1, retryDelay, retryDelay.multipliedBy(2));
    }

    /**
     * True for the keys the deployment's notification filters pass: prefix results/ with suffix .json, and prefix
     * batches/ with suffix /final.json.
     */
    public static boolean matchesFilter(String key) {
        return (key.startsWith(JobLayout.RESULTS_PREFIX) && key.endsWith(JobLayout.JSON_SUFFIX))
                || (key.startsWith(BatchLayout.BATCHES_PREFIX) && key.endsWith(BatchLayout.FINAL_SUFFIX));
    }

    @Override
    public void objectCreated(String bucket, String key, long size, String eTag) {
        if (!keyFilter.test(key)) {
            return;
        }
        String sequencer = String.format(Locale.ROOT, "%016X", sequence.incrementAndGet());
        Instant at = Instant.now();
        executor.execute(() -> deliver(bucket, key, size, eTag, sequencer, at));
    }

    private void deliver(String bucket, String key, long size, String eTag, String sequencer, Instant at) {
        long knownSize = size >= 0 ? size : sizeLookup.applyAsLong(bucket, key);
        byte[] event = JobJson.write(AwsEvents.objectCreated(bucket, key, knownSize, eTag, sequencer, at))
                .getBytes(StandardCharsets.UTF_8);
        Retry retry = retries.start();
        do {
            try {
                LambdaFunction.Invocation result = notifier.invoke(event);
                if (result.ok()) {
                    delivered.incrementAndGet();
                    return;
                }
                console.component("s3-events", key + ": the notifier failed (attempt " + retry.attempt() + " of "
                        + retry.maxAttempts() + "): " + new String(result.payload(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                console.component("s3-events", key + ": cannot reach the notifier (attempt " + retry.attempt()
                        + "): " + e.getMessage());
            }
        } while (retry.another());
        if (retry.interrupted()) {
            return;
        }
        failed.incrementAndGet();
        console.component("s3-events", key + ": event dropped after " + retry.attempt()
                + " attempts (in AWS it would go to the function's on-failure destination)");
    }

    /** Events the notifier accepted. */
    public long delivered() {
        return delivered.get();
    }

    /** Events given up after all retries. */
    public long failed() {
        return failed.get();
    }

    /** Delivers what is pending (up to {@code grace}), then stops. */
    public void drain(Duration grace) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }

    @Override
    public void close() {
        drain(Duration.ofSeconds(5));
    }
}
