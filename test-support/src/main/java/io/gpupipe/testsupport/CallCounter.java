package io.gpupipe.testsupport;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpHeaders;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Counts AWS SDK API calls ({@code Service.Operation}), HTTP attempts, retries and responses, and times each call
 * from the SDK's first hook to its last (marshalling, signing, the server and unmarshalling), and counts the bytes
 * each HTTP attempt moves (request line, headers and body sent; status line, headers and body read): an SDK
 * execution interceptor. A test adds an instance to the clients it builds; where a framework builds the interceptor
 * from its class name (Quarkus's {@code quarkus.sqs.interceptors}), {@link Shared} records into {@link #SHARED}.
 */
public class CallCounter implements ExecutionInterceptor {
    /** What every {@link Shared} interceptor records into. */
    public static final CallCounter SHARED = new CallCounter();

    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("gpupipe.test.call-started");

    private final Map<String, LongAdder> calls = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> responses = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> callNanos = new ConcurrentHashMap<>();
    private final LongAdder allCallNanos = new LongAdder();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder requestBytes = new LongAdder();
    private final LongAdder responseBytes = new LongAdder();

    /**
     * The interceptor to name in configuration: a framework builds one per client from the class name, and each
     * records into {@link #SHARED}.
     */
    public static final class Shared extends CallCounter {
        @Override
        CallCounter tally() {
            return SHARED;
        }
    }

    /** Where this interceptor records. */
    CallCounter tally() {
        return this;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        tally().calls.computeIfAbsent(operation(attributes), k -> new LongAdder()).increment();
        attributes.putAttribute(STARTED, System.nanoTime());
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        tally().attempts.increment();
        // the SDK numbers every attempt in its amz-sdk-request header ("attempt=2; max=4" is the first retry)
        if (context.httpRequest().firstMatchingHeader("amz-sdk-request").filter(h -> !h.startsWith("attempt=1;"))
                .isPresent()) {
            tally().retries.increment();
        }
        tally().requestBytes.add(requestBytes(context.httpRequest(), context.requestBody()));
    }

    /** Counts the response body as the SDK reads it: not every response says its length. */
    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        LongAdder bytes = tally().responseBytes;
        return context.responseBody().map(body -> new FilterInputStream(body) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    bytes.increment();
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    bytes.add(n);
                }
                return n;
            }
        });
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        String name = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " "
                + context.httpResponse().statusCode();
        tally().responses.computeIfAbsent(name, k -> new LongAdder()).increment();
        tally().responseBytes.add("HTTP/1.1 200 OK\r\n".length() + headerBytes(context.httpResponse()));
    }

    /** HTTP/1.1 as sent: request line, headers (the client adds {@code Host}), blank line, body. */
    private static long requestBytes(SdkHttpRequest request, Optional<RequestBody> body) {
        long line = request.method().name().length() + 1 + request.encodedPath().length()
                + request.encodedQueryParameters().map(q -> 1 + q.length()).orElse(0) + " HTTP/1.1\r\n".length();
        long host = "Host: \r\n".length() + request.host().length();
        long length = request.firstMatchingHeader("Content-Length").map(Long::parseLong)
                .or(() -> body.flatMap(RequestBody::optionalContentLength)).orElse(0L);
        return line + host + headerBytes(request) + length;
    }

    private static long headerBytes(SdkHttpHeaders headers) {
        long bytes = 2; // the blank line ending the headers
        for (Map.Entry<String, List<String>> header : headers.headers().entrySet()) {
            for (String value : header.getValue()) {
                bytes += header.getKey().length() + ": \r\n".length() + value.length();
            }
        }
        return bytes;
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        tally().timed(attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        tally().timed(attributes);
    }

    private void timed(ExecutionAttributes attributes) {
        Long started = attributes.getAttribute(STARTED);
        if (started == null) {
            return;
        }
        long nanos = System.nanoTime() - started;
        allCallNanos.add(nanos);
        callNanos.computeIfAbsent(operation(attributes), k -> Collections.synchronizedList(new ArrayList<>()))
                .add(nanos);
    }

    private static String operation(ExecutionAttributes attributes) {
        return attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + "."
                + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    }

    /** Calls per operation ({@code Service.Operation}) since the last reset, sorted by name. */
    public Map<String, Long> calls() {
        Map<String, Long> snapshot = new TreeMap<>();
        calls.forEach((name, count) -> snapshot.put(name, count.sum()));
        return snapshot;
    }

    /** Calls to any operation of {@code service} since the last reset. */
    public long total(String service) {
        return calls.entrySet().stream().filter(e -> e.getKey().startsWith(service + "."))
                .mapToLong(e -> e.getValue().sum()).sum();
    }

    /** HTTP responses by operation and status since the last reset (attempts without one failed on I/O). */
    public Map<String, Long> responses() {
        Map<String, Long> snapshot = new TreeMap<>();
        responses.forEach((name, count) -> snapshot.put(name, count.sum()));
        return snapshot;
    }

    /** Bytes sent over HTTP since the last reset: request lines, headers and bodies of every attempt. */
    public long requestBytes() {
        return requestBytes.sum();
    }

    /** Bytes received over HTTP since the last reset: status lines, headers and the bodies the SDK read. */
    public long responseBytes() {
        return responseBytes.sum();
    }

    public long attempts() {
        return attempts.sum();
    }

    /** HTTP attempts beyond the first of their call (the SDK's retries) since the last reset. */
    public long retries() {
        return retries.sum();
    }

    /** Nanoseconds spent inside SDK calls since the last reset. */
    public long callNanos() {
        return allCallNanos.sum();
    }

    /** Each call's duration in nanoseconds by operation since the last reset. */
    public Map<String, long[]> callDurations() {
        Map<String, long[]> snapshot = new TreeMap<>();
        callNanos.forEach((name, list) -> {
            synchronized (list) {
                snapshot.put(name, list.stream().mapToLong(Long::longValue).toArray());
            }
        });
        return snapshot;
    }

    public void reset() {
        calls.clear();
        responses.clear();
        callNanos.clear();
        allCallNanos.reset();
        attempts.reset();
        retries.reset();
        requestBytes.reset();
        responseBytes.reset();
    }
}
