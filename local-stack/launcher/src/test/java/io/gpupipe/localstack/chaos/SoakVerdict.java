package io.gpupipe.localstack.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.testsupport.CallbackReceiver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The soak's invariants over every requestId it created, once the pipeline is quiet, each one a failure when
 * violated ({@link #broken()}): exactly one {@code results/{id}.json} (none for a job whose cancel was accepted: its
 * marker reads {@code cancelled}); the status API agrees; a job without a result whose marker reads
 * {@code queued}/{@code running} is stuck (nothing is in flight any more), one without a marker is lost; model calls
 * per job stay within the worker's retry bounds; every DLQ entry, visible or in flight, either names a requestId that
 * has a {@code failed} result or is one of the unattributable poison messages the soak itself sent (each of which
 * must be there: nothing is deleted unread); every job with a result and a callbackUrl got at least one callback
 * whose signature verifies and whose signed body reports the stored status, and no callback failed verification.
 * It reads everything through {@link Evidence}, so the checks run over a constructed observation in a unit test.
 */
public final class SoakVerdict {
    /** Stored objects by key ({@code results/…}, {@code jobs/…} markers), parsed; empty when absent. */
    @FunctionalInterface
    public interface Storage {
        Optional<JsonNode> read(String key);

        static Storage s3(S3Client s3, String bucket) {
            return key -> {
                try {
                    byte[] bytes = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
                    return Optional.of(JobJson.mapper().readTree(bytes));
                } catch (NoSuchKeyException e) {
                    return Optional.empty();
                } catch (IOException e) {
                    throw new IllegalStateException("unreadable " + key, e);
                }
            };
        }
    }

    /** The status the HTTP API reports for a requestId; empty when it could not answer. */
    @FunctionalInterface
    public interface StatusApi {
        Optional<String> status(String requestId);
    }

    /** One callback whose signature verified: what its signed body said. */
    public record SignedCallback(String status, String errorCode) {
    }

    /** What the clients' webhook receiver saw. */
    public interface Callbacks {
        /** The callbacks for {@code requestId} whose signature verified, in arrival order. */
        List<SignedCallback> signed(String requestId);

        /** Callbacks whose signature did not verify (or that named no requestId). */
        int rejected();

        /** What a {@link CallbackReceiver#verifying verifying} receiver kept: each signed body's status and error. */
        static Callbacks of(CallbackReceiver receiver) {
            return new Callbacks() {
                @Override
                public List<SignedCallback> signed(String requestId) {
                    return receiver.verified(requestId).stream().map(CallbackReceiver.Received::event)
                            .map(e -> new SignedCallback(e.path("status").asText(), e.path("errorCode").asText(null)))
                            .toList();
                }

                @Override
                public int rejected() {
                    return receiver.rejected();
                }
            };
        }
    }

    /**
     * The DLQ as read once its consumer (the dead-letter function) was stopped and its in-flight messages had become
     * visible again: the bodies read, and how many messages were still in flight (unreadable) after that.
     */
    public record DeadLetters(List<String> bodies, int stillInFlight) {
    }

    /**
     * The worker's bound on model calls: {@code callsPerDelivery} per receive (its retry policy), at most
     * {@code maxReceiveCount} receives per message (the queue's redrive policy).
     */
    public record RetryBound(int callsPerDelivery, int maxReceiveCount) {
        long forMessages(long messages) {
            return (long) callsPerDelivery * maxReceiveCount * messages;
        }
    }

    /** What the verdict reads besides the jobs. */
    public record Evidence(Storage storage, StatusApi statusApi, List<String> modelPrompts,
                           List<String> generatedPrompts, Callbacks callbacks, DeadLetters deadLetters,
                           Map<String, Scenario> malformedTags, RetryBound retryBound, boolean queuesIdle) {
    }

    private final Map<Scenario, ScenarioRow> rows = new EnumMap<>(Scenario.class);
    private final ScenarioRow total = new ScenarioRow("TOTAL");
    private final List<String> findings = new ArrayList<>();
    private int deadLettersInFlight;
    private int strangeDeadLetters;
    private int rejectedCallbacks;

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
        verdict.checkDeadLetters(jobs, evidence);
        verdict.checkSignatures(evidence);
        verdict.rows.values().forEach(verdict.total::add);
        return verdict;
    }

    private ScenarioRow row(Scenario scenario) {
        return rows.computeIfAbsent(scenario, s -> new ScenarioRow(s.label()));
    }

    private void check(SoakJob job, Evidence evidence, long calls, long generations) {
        ScenarioRow row = row(job.scenario());
        if (!job.owed()) {
            row.refused++;
            return;
        }
        row.jobs++;
        row.timing(job.submittedNanos(), job.firstResultNanos());
        String id = job.requestId();
        Optional<JsonNode> result = evidence.storage().read(JobLayout.resultKey(id));
        String expectedStatus;
        if (job.resultWrites() > 1) {
            row.duplicateResults++;
            findings.add("duplicate results: " + id + " written " + job.resultWrites() + " times");
        }
        if (result.isPresent()) {
            expectedStatus = result.get().path("status").asText();
            String errorCode = result.get().path("error").path("code").asText(null);
            if ("succeeded".equals(expectedStatus)) {
                row.succeeded++;
            } else {
                row.failedByCode.merge(Objects.requireNonNullElse(errorCode, "?"), 1, Integer::sum);
            }
            if (job.isCancelAccepted()) {
                row.cancelledButRan++;
                findings.add("cancel answered 202 but the job has a result: " + id + " (" + job.scenario().label()
                        + ") " + expectedStatus);
            }
            if (job.callback()) {
                checkCallback(row, id, expectedStatus, errorCode, evidence.callbacks().signed(id));
            }
        } else {
            String marker = evidence.storage().read(JobLayout.markerKey(id)).map(m -> m.path("status").asText())
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
        // every message that can carry the job: the first accepted submit, each further accepted resubmission
        // (it may re-enqueue), each copy sent straight to the queue
        long bound = evidence.retryBound().forMessages(1 + job.directCopies()
                + Math.max(0, job.acceptedSubmits() - 1));
        if (calls > bound) {
            row.overRetryBound++;
            findings.add("model calls over the retry bound: " + id + " (" + job.scenario().label() + ") " + calls
                    + " > " + bound);
        }
        if (!job.poison()) {
            String reported = evidence.statusApi().status(id).orElse("unanswered");
            if (!reported.equals(expectedStatus)) {
                row.statusDisagrees++;
                findings.add("status API disagrees: " + id + " reports " + reported + ", storage says "
                        + expectedStatus);
            }
        }
    }

    /** At least one callback that verified and reports what was stored. */
    private void checkCallback(ScenarioRow row, String id, String status, String errorCode,
                               List<SignedCallback> signed) {
        boolean matching = signed.stream().anyMatch(c -> status.equals(c.status())
                && Objects.equals(errorCode, c.errorCode()));
        if (!matching) {
            row.callbacksMissing++;
            findings.add("no signed callback reporting the stored result: " + id + " (" + status
                    + (errorCode == null ? "" : " " + errorCode) + "); signed callbacks received: " + signed);
        }
    }

    private void checkDeadLetters(Collection<SoakJob> jobs, Evidence evidence) {
        Map<String, SoakJob> byId = jobs.stream().collect(Collectors.toMap(SoakJob::requestId, Function.identity()));
        evidence.malformedTags().values().forEach(scenario -> row(scenario).poisonSent++);
        int withId = 0;
        for (String body : evidence.deadLetters().bodies()) {
            Optional<String> id = requestIdOf(body);
            Optional<Scenario> poisonOf = evidence.malformedTags().entrySet().stream()
                    .filter(tag -> body.contains(tag.getKey())).map(Map.Entry::getValue).findFirst();
            if (id.isPresent()) {
                withId++;
                SoakJob job = byId.get(id.get());
                Optional<JsonNode> result = evidence.storage().read(JobLayout.resultKey(id.get()));
                if (result.isEmpty() || !"failed".equals(result.get().path("status").asText())) {
                    findings.add("DLQ entry without a failed result: " + id.get()
                            + (job != null ? " (" + job.scenario().label() + ")" : " (not a soak job)"));
                    if (job != null) {
                        row(job.scenario()).deadLettersWithoutFailed++;
                    } else {
                        strangeDeadLetters++;
                    }
                }
            } else if (poisonOf.isPresent()) {
                row(poisonOf.get()).poisonInDlq++;
            } else {
                strangeDeadLetters++;
                findings.add("DLQ entry with no requestId that the soak did not send: "
                        + body.substring(0, Math.min(120, body.length())));
            }
        }
        deadLettersInFlight = evidence.deadLetters().stillInFlight();
        int poisonFound = rows.values().stream().mapToInt(r -> r.poisonInDlq).sum();
        findings.add(0, "DLQ: " + (evidence.deadLetters().bodies().size() + deadLettersInFlight) + " entries ("
                + deadLettersInFlight + " still in flight, unread), " + withId + " with a requestId, " + poisonFound
                + " of " + evidence.malformedTags().size() + " unattributable poison messages the soak sent");
        if (deadLettersInFlight > 0) {
            findings.add("DLQ messages still in flight after its consumer stopped and their visibility timeout "
                    + "passed (unchecked): " + deadLettersInFlight);
        }
        rows.values().stream().filter(r -> r.poisonInDlq < r.poisonSent).forEach(r -> findings.add(
                "unattributable poison messages missing from the DLQ (deleted unread?): " + r.label + " "
                        + (r.poisonSent - r.poisonInDlq) + " of " + r.poisonSent));
    }

    private void checkSignatures(Evidence evidence) {
        rejectedCallbacks = evidence.callbacks().rejected();
        if (rejectedCallbacks > 0) {
            findings.add("callbacks whose signature did not verify: " + rejectedCallbacks);
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

    public Map<Scenario, ScenarioRow> rows() {
        return rows;
    }

    public ScenarioRow total() {
        return total;
    }

    public List<String> findings() {
        return findings;
    }

    /**
     * True when any invariant is violated: a job lost, with more than one result (or any, after a cancel answered
     * 202), stuck, unfinished at the settle limit, misreported by the status API, over the retry bound or without its signed callback; a DLQ entry without
     * a failed result, unread, unknown, or an expected poison message missing; a callback failing verification.
     */
    public boolean broken() {
        return total.broken() || deadLettersInFlight > 0 || strangeDeadLetters > 0 || rejectedCallbacks > 0;
    }

    /** The table, one row per scenario and a total, then the DLQ and signature figures outside the rows. */
    public String table() {
        StringBuilder out = new StringBuilder(ScenarioRow.header()).append('\n');
        rows.values().forEach(row -> out.append(row.line()).append('\n'));
        out.append(total.line()).append('\n');
        return out.append(String.format("DLQ in flight (unread) %d, DLQ entries neither attributable nor sent as "
                + "poison %d, callbacks failing signature verification %d%n", deadLettersInFlight,
                strangeDeadLetters, rejectedCallbacks)).toString();
    }
}
