package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.internal.WorkerProcess;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each worker as the launcher supervises it (process alive, restarts) and as it reports itself on its readiness
 * endpoint, the one ECS polls ({@code phase}, and the window in use and deliveries settled in its data); jobs per
 * second from the change of that count between two looks.
 */
final class WorkerWatch {
    /** One worker; the window figures are null until the worker answers, jobs/s until it answered twice. */
    record WorkerStats(String tier, String name, long pid, String state, String detail, int restarts,
                       Integer windowLimit, Integer inFlight, Double jobsPerSecond) {
    }

    /** The last look at one worker process. */
    private record Sample(long atNanos, long settled, Double rate) {
    }

    private static final Duration MIN_RATE_INTERVAL = Duration.ofSeconds(1);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final Map<Long, Sample> samples = new ConcurrentHashMap<>();

    List<WorkerStats> stats(Map<Tier, WorkerSupervisor> supervisors) {
        List<WorkerStats> stats = new ArrayList<>();
        supervisors.values().stream().sorted(java.util.Comparator.comparing(s -> s.tier().wireName()))
                .forEach(s -> stats.add(stats(s)));
        return stats;
    }

    private WorkerStats stats(WorkerSupervisor supervisor) {
        WorkerProcess worker = supervisor.current();
        long pid = worker.process().pid();
        boolean alive = worker.process().isAlive();
        Optional<JsonNode> data = alive ? worker.healthUri().flatMap(this::readinessData) : Optional.empty();
        Optional<String> phase = data.map(d -> d.path("phase").asText(null));
        Optional<Integer> windowLimit = data.filter(d -> d.has("windowLimit")).map(d -> d.path("windowLimit").asInt());
        Optional<Integer> inFlight = data.filter(d -> d.has("inFlight")).map(d -> d.path("inFlight").asInt());
        Optional<Double> rate = data.filter(d -> d.has("jobsSettled"))
                .flatMap(d -> rate(pid, d.path("jobsSettled").asLong()));
        return new WorkerStats(supervisor.tier().wireName(), WorkerProcess.name(supervisor.tier()), pid,
                state(alive, phase), data.map(d -> d.path("detail").asText("")).orElse(""), supervisor.restarts(),
                windowLimit.orElse(null), inFlight.orElse(null), rate.orElse(null));
    }

    /**
     * The state the console shows: a dead process is being replaced by its supervisor; a live one is what its
     * readiness phase says (starting until it answers).
     */
    static String state(boolean alive, Optional<String> phase) {
        if (!alive) {
            return "restarting";
        }
        return switch (phase.orElse("STARTING")) {
            case "READY" -> "ready";
            case "DRAINING" -> "draining";
            case "STOPPED" -> "stopped";
            case "FAILED" -> "failed";
            default -> "starting";
        };
    }

    private Optional<Double> rate(long pid, long settled) {
        long now = System.nanoTime();
        Sample previous = samples.get(pid);
        if (previous == null) {
            samples.put(pid, new Sample(now, settled, null));
            return Optional.empty();
        }
        if (now - previous.atNanos() < MIN_RATE_INTERVAL.toNanos()) {
            return Optional.ofNullable(previous.rate());
        }
        double rate = (settled - previous.settled()) * 1e9 / (now - previous.atNanos());
        samples.put(pid, new Sample(now, settled, rate));
        return Optional.of(rate);
    }

    /** The readiness check's data (answered with 503 while not ready, with the same body). */
    private Optional<JsonNode> readinessData(URI health) {
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(2))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            JsonNode checks = JobJson.read(answer.body(), JsonNode.class).path("checks");
            return checks.isArray() && !checks.isEmpty() ? Optional.of(checks.get(0).path("data")) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
