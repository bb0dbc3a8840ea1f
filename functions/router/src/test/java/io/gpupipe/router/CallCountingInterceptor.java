package io.gpupipe.router;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Counts AWS SDK API calls ({@code Service.Operation}), HTTP attempts and retries, and times each call from the
 * SDK's first hook to its last (the call as the router waits for it: marshalling, signing, the local server and
 * unmarshalling), registered on the Quarkus-managed SQS and S3
 * clients through {@code quarkus.sqs.interceptors} / {@code quarkus.s3.interceptors} by the benchmark's profile.
 */
public class CallCountingInterceptor implements ExecutionInterceptor {
    private static final Map<String, LongAdder> CALLS = new ConcurrentHashMap<>();
    private static final Map<String, LongAdder> RESPONSES = new ConcurrentHashMap<>();
    private static final LongAdder ATTEMPTS = new LongAdder();
    private static final LongAdder RETRIES = new LongAdder();
    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("gpupipe.benchmark.started");
    private static final Map<String, List<Long>> CALL_NANOS = new ConcurrentHashMap<>();
    private static final LongAdder ALL_CALL_NANOS = new LongAdder();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String name = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        CALLS.computeIfAbsent(name, k -> new LongAdder()).increment();
        attributes.putAttribute(STARTED, System.nanoTime());
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        timed(attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        timed(attributes);
    }

    private static void timed(ExecutionAttributes attributes) {
        long nanos = System.nanoTime() - attributes.getAttribute(STARTED);
        ALL_CALL_NANOS.add(nanos);
        List<Long> list = CALL_NANOS.computeIfAbsent(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME)
                + "." + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
                k -> Collections.synchronizedList(new ArrayList<>()));
        list.add(nanos);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        ATTEMPTS.increment();
        // the SDK numbers every attempt in its amz-sdk-request header ("attempt=2; max=4" is the first retry)
        if (context.httpRequest().firstMatchingHeader("amz-sdk-request").filter(h -> !h.startsWith("attempt=1;"))
                .isPresent()) {
            RETRIES.increment();
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        String name = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " "
                + context.httpResponse().statusCode();
        RESPONSES.computeIfAbsent(name, k -> new LongAdder()).increment();
    }

    static void reset() {
        CALLS.clear();
        RESPONSES.clear();
        ATTEMPTS.reset();
        RETRIES.reset();
        CALL_NANOS.clear();
        ALL_CALL_NANOS.reset();
    }

    /** Nanoseconds spent inside SDK calls since the last reset (calls run one at a time in the benchmark). */
    static long callNanos() {
        return ALL_CALL_NANOS.sum();
    }

    /** Each call's duration in nanoseconds by operation since the last reset. */
    static Map<String, long[]> callDurations() {
        Map<String, long[]> snapshot = new TreeMap<>();
        CALL_NANOS.forEach((name, list) -> {
            synchronized (list) {
                snapshot.put(name, list.stream().mapToLong(Long::longValue).toArray());
            }
        });
        return snapshot;
    }

    /** Calls per operation since the last reset, sorted by name. */
    static Map<String, Long> calls() {
        Map<String, Long> snapshot = new TreeMap<>();
        CALLS.forEach((name, count) -> snapshot.put(name, count.sum()));
        return snapshot;
    }

    /** HTTP responses by operation and status since the last reset (attempts without one failed on I/O). */
    static Map<String, Long> responses() {
        Map<String, Long> snapshot = new TreeMap<>();
        RESPONSES.forEach((name, count) -> snapshot.put(name, count.sum()));
        return snapshot;
    }

    static long attempts() {
        return ATTEMPTS.sum();
    }

    /** HTTP attempts beyond the first of their call (the SDK's retries) since the last reset. */
    static long retries() {
        return RETRIES.sum();
    }
}
