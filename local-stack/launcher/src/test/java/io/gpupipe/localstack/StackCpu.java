package io.gpupipe.localstack;

import io.gpupipe.localstack.internal.LambdaFunction;
import io.gpupipe.localstack.internal.WorkerProcess;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * CPU time (user + system) of each part of a running local stack, for benchmarks: each child process (the Lambda
 * hosts, the workers) as the OS counts it, each service in this JVM from its threads' CPU time (ElasticMQ, S3Proxy,
 * the HTTP API facade, the vLLM stand-in, ...), and the rest of this JVM (GC, JIT, threads that exited) as one line.
 * CPU time is far less disturbed by other programs on the machine than wall-clock time.
 */
final class StackCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final String THIS_JVM_REST = "launcher JVM: GC, JIT, exited threads";

    /** Which in-JVM component a thread belongs to, by its name (first match wins). */
    private static final List<Map.Entry<String, String>> THREAD_OWNERS = List.of(
            Map.entry("elasticmq", "ElasticMQ (SQS)"),
            Map.entry("pekko", "ElasticMQ (SQS)"),
            Map.entry("s3proxy", "S3Proxy (S3)"),
            Map.entry("qtp", "S3Proxy (S3)"),
            Map.entry("vllm-standin", "vLLM stand-in"),
            Map.entry("http-api", "HTTP API facade"),
            Map.entry("-invoke", "Lambda invoke clients (facade, S3 events)"),
            Map.entry("httpclient-", "JDK HTTP client selectors"),
            Map.entry("http-dispatcher", "JDK HTTP server dispatchers"),
            Map.entry("benchmark-client", "benchmark clients"),
            Map.entry("s3-event-delivery", "S3 event delivery"),
            Map.entry("-output", "child output to console"));

    private StackCpu() {
    }

    /** CPU nanoseconds by component at one instant. */
    record Snapshot(Map<String, Long> nanos, Map<String, Long> threadGroups) {
    }

    static Snapshot take(LocalStack stack) {
        Map<String, Long> nanos = new LinkedHashMap<>();
        List<LambdaFunction> functions = new ArrayList<>();
        functions.add(stack.functions().router());
        stack.functions().notifier().ifPresent(functions::add);
        stack.functions().scalingMetric().ifPresent(functions::add);
        stack.functions().deadLetter().ifPresent(functions::add);
        for (LambdaFunction function : functions) {
            processCpu(function.process().pid()).ifPresent(n -> nanos.put("λ " + function.name(), n));
        }
        stack.workers().forEach((tier, worker) -> processCpu(worker.process().pid())
                .ifPresent(n -> nanos.put(WorkerProcess.name(tier), n)));
        Map<String, Long> groups = new LinkedHashMap<>();
        long threadTotal = 0;
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long cpu = THREADS.getThreadCpuTime(ids[i]);
            if (infos[i] == null || cpu < 0) {
                continue;
            }
            threadTotal += cpu;
            String name = infos[i].getThreadName();
            nanos.merge(owner(name), cpu, Long::sum);
            groups.merge(name.replaceAll("\\d+", "N"), cpu, Long::sum);
        }
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        nanos.put(THIS_JVM_REST, Math.max(0, process - threadTotal));
        return new Snapshot(nanos, groups);
    }

    private static Optional<Long> processCpu(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(Duration::toNanos);
    }

    static String owner(String threadName) {
        String lower = threadName.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, String> rule : THREAD_OWNERS) {
            if (lower.contains(rule.getKey())) {
                return rule.getValue();
            }
        }
        return "launcher JVM: other threads";
    }

    /** Lines of CPU ms per job by component, largest first, with the total and what 2 cores could give. */
    static List<String> report(Snapshot before, Snapshot after, int jobs, double wallSeconds) {
        List<String> lines = new ArrayList<>();
        Map<String, Long> used = delta(before.nanos(), after.nanos());
        long total = used.values().stream().mapToLong(Long::longValue).sum();
        used.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> lines.add(String.format(Locale.ROOT, "    %-44s %7.2f ms/job  %5.1f %%", e.getKey(),
                        e.getValue() / 1e6 / jobs, 100.0 * e.getValue() / Math.max(1, total))));
        int cores = Runtime.getRuntime().availableProcessors();
        lines.add(String.format(Locale.ROOT, "    %-44s %7.2f ms/job  (%d cores x %.1f s = %.2f ms/job available)",
                "TOTAL", total / 1e6 / jobs, cores, wallSeconds, cores * wallSeconds * 1e3 / jobs));
        lines.add("    busiest thread groups of the launcher JVM (digits as N):");
        delta(before.threadGroups(), after.threadGroups()).entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(12)
                .forEach(e -> lines.add(String.format(Locale.ROOT, "      %-52s %7.2f ms/job", e.getKey(),
                        e.getValue() / 1e6 / jobs)));
        return lines;
    }

    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> used = new LinkedHashMap<>();
        after.forEach((key, value) -> used.put(key, Math.max(0, value - before.getOrDefault(key, 0L))));
        return used;
    }
}
