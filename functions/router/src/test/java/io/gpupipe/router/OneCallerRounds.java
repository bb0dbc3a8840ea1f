package io.gpupipe.router;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gpupipe.testsupport.CallCounter;
import io.quarkus.amazon.lambda.http.LambdaHttpHandler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Submissions of one caller (a JWT subject of its own) through the router's handler: filled by concurrent POSTs, or
 * measured one at a time with the S3 and SQS calls and bytes {@link CallCounter#SHARED} counts meanwhile. Nothing
 * finishes in these benchmarks, so every accepted submission stays unfinished.
 */
final class OneCallerRounds {
    /** 503 answers (the store busy) a filling POST retries, as a client would, under the same requestId. */
    private static final int FILL_ATTEMPTS = 20;

    private final LambdaHttpHandler handler = new LambdaHttpHandler();
    private final String caller = "caller-" + UUID.randomUUID();

    /** The calls and bytes of {@code count} requests made one at a time, their latencies and answers. */
    record Round(int count, Map<String, Long> calls, long sent, long received, long[] nanos,
                 Map<Integer, Integer> statuses, boolean retryAfterOnEach) {
        double callsEach() {
            return calls.values().stream().mapToLong(Long::longValue).sum() / (double) count;
        }

        double bytesEach() {
            return (sent + received) / (double) count;
        }

        double p(int percentile) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            return sorted[Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.length) - 1)] / 1e6;
        }

        /** Calls per request by operation. */
        String callsByOperation() {
            Map<String, String> each = new TreeMap<>();
            calls.forEach((name, n) -> each.put(name, String.format("%.2f", n / (double) count)));
            return each.toString();
        }
    }

    /** {@code count} new jobs of the caller by {@code threads} concurrent POSTs; the answers by status. */
    Map<Integer, Integer> fill(int count, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Integer>>> answers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String id = UUID.randomUUID().toString();
                answers.add(pool.submit(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    for (int attempt = 0; attempt < FILL_ATTEMPTS; attempt++) {
                        int status = handler.handleRequest(submit(id), null).getStatusCode();
                        statuses.add(status);
                        if (status != 503) {
                            break;
                        }
                    }
                    return statuses;
                }));
            }
            Map<Integer, Integer> byStatus = new TreeMap<>();
            for (Future<List<Integer>> answer : answers) {
                answer.get().forEach(status -> byStatus.merge(status, 1, Integer::sum));
            }
            return byStatus;
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@code count} new jobs of the caller submitted one at a time, counted from a reset {@link CallCounter}. */
    Round round(int count) {
        CallCounter.SHARED.reset();
        long[] nanos = new long[count];
        Map<Integer, Integer> statuses = new TreeMap<>();
        boolean retryAfter = true;
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            APIGatewayV2HTTPResponse response = handler.handleRequest(submit(UUID.randomUUID().toString()), null);
            nanos[i] = System.nanoTime() - start;
            statuses.merge(response.getStatusCode(), 1, Integer::sum);
            retryAfter &= response.getStatusCode() != 429 || response.getHeaders().keySet().stream()
                    .anyMatch("Retry-After"::equalsIgnoreCase);
        }
        return new Round(count, CallCounter.SHARED.calls(), CallCounter.SHARED.requestBytes(),
                CallCounter.SHARED.responseBytes(), nanos, statuses, retryAfter);
    }

    private APIGatewayV2HTTPEvent submit(String id) {
        return RouterEvents.request("POST", "/v1/jobs", "{\"requestId\":\"" + id
                + "\",\"prompt\":\"Wait in the queue.\",\"maxTokens\":16}", caller);
    }
}
