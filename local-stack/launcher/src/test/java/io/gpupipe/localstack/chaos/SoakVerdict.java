package io.gpupipe.localstack.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The soak's invariants over every requestId it created, once the pipeline is quiet: exactly one
 * {@code results/{id}.json} (none for a job whose cancel was accepted: its marker reads {@code cancelled}); the status
 * API agrees; a job without a result whose marker reads {@code queued}/{@code running} is stuck (nothing is in flight
 * any more), one without a marker is lost; model calls per job stay within the retry bounds; every DLQ entry with a
 * requestId has a {@code failed} result; every job with a result was called back (signed) at least once.
 */
public final class SoakVerdict {
    /** What the verdict reads besides the jobs. */
    public record Evidence(S3Client s3, String bucket, SoakClient client, List<String> modelPrompts,
                           List<String> generatedPrompts, CallbackReceiver receiver, List<String> dlqBodies,
                           Set<String> malformedTags, int callsPerDelivery, int maxReceiveCount,
                           boolean queuesIdle) {
    }

    private final Map<Scenario, ScenarioRow> rows = new EnumMap<>(Scenario.class);
    private final ScenarioRow total = new ScenarioRow("TOTAL");
    private final List<String> findings = new ArrayList<>();

    private SoakVerdict() {
    }

    public static SoakVerdict of(Collection<SoakJob> jobs, Evidence evidence) {
        SoakVerdict verdict = new SoakVerdict();
        Map<String, Long> calls = countByRequestId(evidence.modelPrompts());
        Map<String, Long> generations = countByRequestId(evidence.generatedPrompts());
        for (SoakJob job : jobs) {
            verdict.check(job, evidence, calls.getOrDefault(job.requestId(), 0L),
                    generations.getOrDefault(job.requestId(), 0L));
        }
        verdict.rows.values().forEach(verdict.total::add);
        verdict.checkDeadLetters(jobs, evidence);
        return verdict;
    }

    private void check(SoakJob job, Evidence evidence, long calls, long generations) {
        ScenarioRow row = rows.computeIfAbsent(job.scenario(), s -> new ScenarioRow(s.label()));
        if (!job.owed()) {
            row.refused++;
            return;
        }
        row.jobs++;
        row.timing(job.submittedNanos(), job.firstResultNanos());
        String id = job.requestId();
        Optional<JsonNode> result = read(evidence, JobLayout.resultKey(id));
        String expectedStatus;
        if (job.resultWrites() > 1) {
            row.duplicateResults++;
            findings.add("duplicate results: " + id + " written " + job.resultWrites() + " times");
        }
        if (result.isPresent()) {
            expectedStatus = result.get().path("status").asText();
            if ("succeeded".equals(expectedStatus)) {
                row.succeeded++;
            } else {
                row.failedByCode.merge(result.get().path("error").path("code").asText("?"), 1, Integer::sum);
            }
            if (job.isCancelAccepted()) {
                findings.add("cancel answered 202 but the job has a result: " + id + " " + expectedStatus);
            }
            if (job.callback() && evidence.receiver().deliveries(id) == 0) {
                row.callbacksMissing++;
            }
        } else {
            String marker = read(evidence, JobLayout.markerKey(id)).map(m -> m.path("status").asText())
                    .orElse("absent");
            expectedStatus = marker;
            if ("cancelled".equals(marker)) {
                row.cancelled++;
            } else if (!evidence.queuesIdle()) {
                row.unfinished++;
                findings.add("unfinished: " + id + " (" + job.scenario().label() + ") marker " + marker
                        + ", messages still in flight at the settle limit");
            } else if ("queued".equals(marker) || "running".equals(marker)) {
                row.stuck++;
                findings.add("stuck: " + id + " (" + job.scenario().label() + ") marker reads " + marker
                        + " with nothing in flight; its client got " + job.serverErrors() + " 5xx/dropped answers, "
                        + job.acceptedSubmits() + " accepted");
            } else {
                row.lost++;
                findings.add("lost: " + id + " (" + job.scenario().label() + ") no result, marker " + marker);
            }
        }
        if (generations > 1) {
            row.doubleInferences++;
        }
        long bound = (long) evidence.callsPerDelivery() * evidence.maxReceiveCount()
                * (1 + job.directCopies() + Math.max(0, job.acceptedSubmits() - 1));
        if (calls > bound) {
            row.overRetryBound++;
            findings.add("model calls over the retry bound: " + id + " " + calls + " > " + bound);
        }
        if (!job.poison()) {
            String reported = evidence.client().status(id).orElse("unanswered");
            if (!reported.equals(expectedStatus)) {
                row.statusDisagrees++;
                findings.add("status API disagrees: " + id + " reports " + reported + ", storage says "
                        + expectedStatus);
            }
        }
    }

    private void checkDeadLetters(Collection<SoakJob> jobs, Evidence evidence) {
        Map<String, SoakJob> byId = jobs.stream().collect(Collectors.toMap(SoakJob::requestId, Function.identity()));
        int withId = 0;
        int withoutFailed = 0;
        int tagged = 0;
        for (String body : evidence.dlqBodies()) {
            Optional<String> id = requestIdOf(body);
            if (id.isPresent()) {
                withId++;
                Optional<JsonNode> result = read(evidence, JobLayout.resultKey(id.get()));
                if (result.isEmpty() || !"failed".equals(result.get().path("status").asText())) {
                    withoutFailed++;
                    findings.add("DLQ entry without a failed result: " + id.get()
                            + (byId.containsKey(id.get()) ? " (" + byId.get(id.get()).scenario().label() + ")" : ""));
                }
            } else if (evidence.malformedTags().stream().anyMatch(body::contains)) {
                tagged++;
            }
        }
        findings.add(0, "DLQ: " + evidence.dlqBodies().size() + " entries, " + withId + " with a requestId ("
                + withoutFailed + " without a failed result), " + tagged + " of " + evidence.malformedTags().size()
                + " malformed poison messages found there");
        if (tagged < evidence.malformedTags().size()) {
            findings.add("malformed poison messages missing from the DLQ: "
                    + (evidence.malformedTags().size() - tagged));
        }
    }

    private static Optional<String> requestIdOf(String body) {
        try {
            JsonNode node = JobJson.mapper().readTree(body);
            return node != null && node.hasNonNull("requestId") ? Optional.of(node.get("requestId").asText())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Map<String, Long> countByRequestId(List<String> prompts) {
        return prompts.stream().map(SoakJobs::requestIdOfPrompt).flatMap(Optional::stream)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    private static Optional<JsonNode> read(Evidence evidence, String key) {
        try {
            byte[] bytes = evidence.s3().getObjectAsBytes(b -> b.bucket(evidence.bucket()).key(key)).asByteArray();
            return Optional.of(JobJson.mapper().readTree(bytes));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException("unreadable " + key, e);
        }
    }

    public Map<Scenario, ScenarioRow> rows() {
        return rows;
    }

    public ScenarioRow total() {
        return total;
    }

    public List<String> findings() {
        return findings;
    }

    /** True when any job was lost, got more than one result, is stuck, or had not finished by the settle limit. */
    public boolean broken() {
        return total.broken();
    }

    /** The table, one row per scenario and a total. */
    public String table() {
        StringBuilder out = new StringBuilder(ScenarioRow.header()).append('\n');
        rows.values().forEach(row -> out.append(row.line()).append('\n'));
        return out.append(total.line()).append('\n').toString();
    }
}
