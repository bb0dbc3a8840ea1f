package io.gpupipe.localstack.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpupipe.localstack.internal.WorkerSupervisor;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.model.owner.Owner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the console's pages ask for, as JSON: recent jobs, one job's request, notifications and trace, the queues,
 * workers and DLQ, and the scaling series. Reads only (the redrive is {@link Redrive}'s).
 */
final class ConsoleApi {
    static final int JOB_ROWS = 50;
    static final Duration SCALING_WINDOW = Duration.ofMinutes(15);
    /** Several open pages share one look at the queues and workers per second. */
    static final Duration SNAPSHOT_AGE = Duration.ofSeconds(1);

    private final TierCatalogue tiers;
    private final RecentJobs jobs;
    private final Function<String, Optional<byte[]>> objects;
    private final Path traceFile;
    private final QueueWatch queues;
    private final WorkerWatch workers = new WorkerWatch();
    private final Supplier<Map<Tier, WorkerSupervisor>> supervisors;
    private final DeadLetters deadLetters;
    private final Optional<Redrive> redrive;
    private final Optional<ScalingWatch> scaling;
    private final Clock clock;
    private final UsageWatch usage;
    private ObjectNode queuesSnapshot;
    private Instant queuesSnapshotAt = Instant.MIN;

    /** {@code traceFile} null: no trace file; {@code redrive} and {@code scaling} empty when not running. */
    ConsoleApi(TierCatalogue tiers, RecentJobs jobs, Function<String, Optional<byte[]>> objects, Path traceFile,
               QueueWatch queues, Supplier<Map<Tier, WorkerSupervisor>> supervisors, DeadLetters deadLetters,
               Optional<Redrive> redrive, Optional<ScalingWatch> scaling, UsageWatch usage, Clock clock) {
        this.usage = usage;
        this.tiers = tiers;
        this.jobs = jobs;
        this.objects = objects;
        this.traceFile = traceFile;
        this.queues = queues;
        this.supervisors = supervisors;
        this.deadLetters = deadLetters;
        this.redrive = redrive;
        this.scaling = scaling;
        this.clock = clock;
    }

    /** The tiers and the tasks each serves (the submit form's choices), and what the stack has on. */
    ObjectNode config() {
        ObjectNode config = JobJson.mapper().createObjectNode();
        ArrayNode list = config.putArray("tiers");
        for (TierDefinition tier : tiers.tiers()) {
            ObjectNode node = list.addObject().put("name", tier.tier().wireName()).put("queue", tier.queue());
            tier.servedTasks().forEach(t -> node.withArray("tasks").add(t.wireName()));
        }
        ObjectNode defaults = config.putObject("defaultTiers");
        for (Task task : Task.values()) {
            defaults.put(task.wireName(), tiers.defaultTier(task).wireName());
        }
        config.put("traceFile", traceFile != null);
        config.put("redrive", redrive.isPresent());
        config.put("scaling", scaling.isPresent());
        return config;
    }

    /** The newest jobs: every caller's, or only {@code scope}'s. */
    ObjectNode jobs(Optional<Owner> scope) {
        ObjectNode answer = JobJson.mapper().createObjectNode();
        ArrayNode rows = answer.putArray("jobs");
        scope.map(owner -> jobs.newest(JOB_ROWS, owner)).orElseGet(() -> jobs.newest(JOB_ROWS))
                .forEach(row -> rows.add(JobJson.mapper().valueToTree(row)));
        return answer;
    }

    /**
     * One job: what the console saw of it, the request the API accepted, notification records and its trace. With a
     * {@code scope}, {@code id} names a job of that caller only (as the API's status does).
     */
    ObjectNode job(String id, Optional<Owner> scope) {
        String requestId = scope.map(owner -> jobs.storedIdOf(id, owner)).orElse(id);
        ObjectNode answer = JobJson.mapper().createObjectNode();
        Optional<JobRow> row = jobs.find(requestId);
        answer.put("seen", row.isPresent());
        row.ifPresent(r -> answer.set("row", JobJson.mapper().valueToTree(r)));
        jobs.request(requestId).ifPresent(body -> answer.set("request", json(body)));
        ArrayNode notifications = answer.putArray("notifications");
        for (String step : jobs.notifications(requestId)) {
            objects.apply(JobLayout.notificationKey(jobs.storedId(requestId), step)).ifPresent(record -> notifications.addObject()
                    .put("step", step).set("record", json(record)));
        }
        ObjectNode trace = answer.putObject("trace").put("enabled", traceFile != null);
        Optional<String> traceId = row.map(JobRow::traceId).or(() -> resultTraceId(jobs.storedId(requestId)));
        if (traceFile != null && traceId.isPresent()) {
            trace.put("traceId", traceId.get());
            List<TraceSpans.Span> spans = TraceSpans.ofTrace(traceFile, traceId.get());
            ArrayNode list = trace.putArray("spans");
            long start = spans.isEmpty() ? 0 : spans.get(0).startNanos();
            for (TraceSpans.Span span : spans) {
                list.addObject().put("service", span.service()).put("name", span.name())
                        .put("startMs", (span.startNanos() - start) / 1e6)
                        .put("durationMs", (span.endNanos() - span.startNanos()) / 1e6)
                        .put("depth", TraceSpans.depth(spans, span)).set("attributes", span.attributes());
            }
        }
        return answer;
    }

    /**
     * The queues, workers, DLQ messages and move tasks; one look per {@link #SNAPSHOT_AGE} for every page. With a
     * {@code scope}, the DLQ messages of that caller only (their bodies hold prompts).
     */
    ObjectNode queues(Optional<Owner> scope) {
        ObjectNode answer = queues();
        if (scope.isEmpty()) {
            return answer;
        }
        ObjectNode scoped = answer.deepCopy();
        ArrayNode letters = scoped.putArray("deadLetters");
        answer.path("deadLetters").forEach(letter -> {
            if (scope.get().value().equals(letter.path("owner").asText(null))) {
                letters.add(letter);
            }
        });
        return scoped;
    }

    private synchronized ObjectNode queues() {
        Instant now = clock.instant();
        if (queuesSnapshot != null && now.isBefore(queuesSnapshotAt.plus(SNAPSHOT_AGE))) {
            return queuesSnapshot;
        }
        ObjectNode answer = JobJson.mapper().createObjectNode();
        List<DeadLetters.Letter> letters = deadLetters.current();
        answer.set("queues", JobJson.mapper().valueToTree(queues.stats(jobs.oldestQueued(),
                letters.stream().map(DeadLetters.Letter::sentAt).min(Instant::compareTo), now)));
        answer.set("workers", JobJson.mapper().valueToTree(workers.stats(supervisors.get())));
        answer.set("deadLetters", JobJson.mapper().valueToTree(letters));
        redrive.ifPresent(r -> answer.set("moveTasks", JobJson.mapper().valueToTree(r.tasks())));
        ArrayNode destinations = answer.putArray("destinations");
        queues.queues().stream().filter(q -> !q.deadLetter()).forEach(q -> destinations.add(q.name()));
        queuesSnapshot = answer;
        queuesSnapshotAt = now;
        return answer;
    }

    ObjectNode scaling() {
        ObjectNode answer = JobJson.mapper().createObjectNode().put("metric", "DesiredTasks")
                .put("windowMinutes", SCALING_WINDOW.toMinutes());
        ArrayNode series = answer.putArray("series");
        scaling.ifPresent(s -> s.desiredTasks(clock.instant(), SCALING_WINDOW).forEach((tier, points) ->
                series.addObject().put("tier", tier).set("points", JobJson.mapper().valueToTree(points))));
        return answer;
    }

    /** Every caller's usage of the month so far ({@link UsageWatch}), or only {@code scope}'s. */
    ObjectNode usage(Optional<Owner> scope) {
        return usage.usage(scope);
    }

    /** Forgets the DLQ view's messages (after a redrive moved them) and the cached look at the queues. */
    synchronized void redriven() {
        deadLetters.clear();
        queuesSnapshot = null;
    }

    private Optional<String> resultTraceId(String requestId) {
        return objects.apply(JobLayout.resultKey(requestId)).flatMap(bytes -> {
            try {
                return Optional.ofNullable(JobJson.read(new String(bytes, StandardCharsets.UTF_8), JobResult.class)
                        .traceId());
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        });
    }

    /** A stored document as JSON, or as its text when it is not JSON. */
    private static JsonNode json(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        try {
            return JobJson.read(text, JsonNode.class);
        } catch (RuntimeException e) {
            return JobJson.mapper().getNodeFactory().textNode(text);
        }
    }
}
