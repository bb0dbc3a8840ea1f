package io.gpupipe.worker.support;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Counts AWS API calls by service and operation, and retried HTTP attempts (an SDK execution interceptor). */
public final class CallCounter implements ExecutionInterceptor {
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final AtomicLong retries = new AtomicLong();

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        // the SDK numbers every attempt in its amz-sdk-request header ("attempt=2; max=4" is the first retry)
        if (context.httpRequest().firstMatchingHeader("amz-sdk-request").filter(h -> !h.startsWith("attempt=1;"))
                .isPresent()) {
            retries.incrementAndGet();
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        count(attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        count(attributes);
    }

    private void count(ExecutionAttributes attributes) {
        String key = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        calls.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }

    public long total(String service) {
        return calls.entrySet().stream().filter(e -> e.getKey().startsWith(service + "."))
                .mapToLong(e -> e.getValue().get()).sum();
    }

    /** HTTP attempts beyond the first of their call (the SDK's retries). */
    public long retries() {
        return retries.get();
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        calls.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    public void reset() {
        calls.clear();
        retries.set(0);
    }
}
