package io.gpupipe.localstack.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Each of the soak's invariants over a constructed observation: a clean one passes, and each violation alone
 * fails the verdict (no stack, no sleeping).
 */
class SoakVerdictTest {
    private static final SoakVerdict.RetryBound BOUND = new SoakVerdict.RetryBound(4, 5);

    private final Map<String, JsonNode> storage = new HashMap<>();
    private final Map<String, String> statuses = new HashMap<>();
    private final Map<String, List<SoakVerdict.SignedCallback>> callbacks = new HashMap<>();
    private final List<String> prompts = new ArrayList<>();
    private final List<String> generated = new ArrayList<>();
    private final List<String> dlq = new ArrayList<>();
    private final Map<String, Scenario> poisonTags = new HashMap<>();
    private final List<SoakJob> jobs = new ArrayList<>();
    private int stillInFlight;
    private int rejectedCallbacks;

    @Test
    void verdict_shouldPass_whenEveryJobEndsOnceAndEveryCallbackAndDeadLetterIsAccountedFor() {
        succeeded(Scenario.BASELINE);
        deadLettered(Scenario.POISON);
        unattributablePoison(Scenario.POISON, true);

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).as(String.join("\n", verdict.findings())).isFalse();
        assertThat(verdict.rows().get(Scenario.POISON).poisonInDlq).isEqualTo(1);
        assertThat(verdict.table()).contains("poison").contains("1/1");
    }

    @Test
    void verdict_shouldFail_whenADeadLetteredJobHasNoFailedResult() {
        SoakJob job = accepted(Scenario.POISON);
        storage.put(JobLayout.markerKey(job.requestId()), json("{\"status\":\"running\"}"));
        storage.put(JobLayout.resultKey(job.requestId()), json("{\"status\":\"succeeded\"}"));
        job.resultWritten(2);
        statuses.put(job.requestId(), "succeeded");
        signed(job, "succeeded", null);
        dlq.add(body(job.requestId()));

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.rows().get(Scenario.POISON).deadLettersWithoutFailed).isEqualTo(1);
    }

    @Test
    void verdict_shouldFail_whenDeadLettersAreStillInFlightAndUnread() {
        succeeded(Scenario.BASELINE);
        stillInFlight = 2;

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.findings()).anyMatch(f -> f.contains("still in flight"));
    }

    @Test
    void verdict_shouldFail_whenAnUnattributablePoisonMessageIsMissingFromTheDeadLetterQueue() {
        succeeded(Scenario.BASELINE);
        unattributablePoison(Scenario.POISON, false);

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.findings()).anyMatch(f -> f.contains("missing from the DLQ"));
    }

    @Test
    void verdict_shouldFail_whenTheDeadLetterQueueHoldsAMessageTheSoakDidNotSend() {
        succeeded(Scenario.BASELINE);
        dlq.add("not json and no tag");

        assertThat(verdict().broken()).isTrue();
    }

    @Test
    void verdict_shouldFail_whenAJobWithAResultWasNeverCalledBack() {
        SoakJob job = succeeded(Scenario.WEBHOOK_DOWN);
        callbacks.remove(job.requestId());

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.rows().get(Scenario.WEBHOOK_DOWN).callbacksMissing).isEqualTo(1);
    }

    @Test
    void verdict_shouldFail_whenTheOnlySignedCallbackReportsAnotherResultThanTheStoredOne() {
        SoakJob job = succeeded(Scenario.WEBHOOK_DOWN);
        callbacks.remove(job.requestId());
        signed(job, "failed", "model_error");

        assertThat(verdict().broken()).isTrue();
    }

    @Test
    void verdict_shouldFail_whenACallbackFailedSignatureVerification() {
        succeeded(Scenario.WEBHOOK_DOWN);
        rejectedCallbacks = 1;

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.findings()).anyMatch(f -> f.contains("signature did not verify"));
    }

    @Test
    void verdict_shouldFail_whenAJobTookMoreModelCallsThanTheRetryBound() {
        SoakJob job = succeeded(Scenario.MODEL_500);
        prompts.clear();
        long bound = (long) BOUND.callsPerDelivery() * BOUND.maxReceiveCount();
        for (long call = 0; call <= bound; call++) {
            prompts.add(SoakJobs.PROMPT_PREFIX + job.requestId() + " tells a short story");
        }

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.rows().get(Scenario.MODEL_500).overRetryBound).isEqualTo(1);
    }

    @Test
    void verdict_shouldAllowTheRetryBoundOfEveryCopy_whenAJobWasAlsoSentStraightToItsQueue() {
        SoakJob job = succeeded(Scenario.DUPLICATES);
        job.copied();
        prompts.clear();
        long bound = 2L * BOUND.callsPerDelivery() * BOUND.maxReceiveCount();
        for (long call = 0; call < bound; call++) {
            prompts.add(SoakJobs.PROMPT_PREFIX + job.requestId() + " tells a short story");
        }

        assertThat(verdict().broken()).isFalse();
    }

    @Test
    void verdict_shouldFail_whenAJobHasTwoResults() {
        SoakJob job = succeeded(Scenario.VISIBILITY_LAPSE);
        job.resultWritten(3);

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.rows().get(Scenario.VISIBILITY_LAPSE).duplicateResults).isEqualTo(1);
    }

    @Test
    void verdict_shouldCountADoubleInferenceWithoutFailing_whenTheJobStillHasOneResult() {
        SoakJob job = succeeded(Scenario.VISIBILITY_LAPSE);
        generated.add(SoakJobs.PROMPT_PREFIX + job.requestId() + SoakJobs.OUTLASTS_VISIBILITY);
        generated.add(SoakJobs.PROMPT_PREFIX + job.requestId() + SoakJobs.OUTLASTS_VISIBILITY);

        SoakVerdict verdict = verdict();

        assertThat(verdict.rows().get(Scenario.VISIBILITY_LAPSE).doubleInferences).isEqualTo(1);
        assertThat(verdict.broken()).isFalse();
    }

    @Test
    void verdict_shouldFail_whenAJobWhoseCancelWasAcceptedStillGotAResult() {
        SoakJob job = succeeded(Scenario.DUPLICATES);
        job.cancelAccepted();

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.findings()).anyMatch(f -> f.startsWith("cancel answered 202"));
    }

    @Test
    void verdict_shouldFail_whenTheStatusApiDisagreesWithStorage() {
        SoakJob job = succeeded(Scenario.BASELINE);
        statuses.put(job.requestId(), "running");

        assertThat(verdict().broken()).isTrue();
    }

    @Test
    void verdict_shouldFail_whenAMarkerReadsQueuedWithNothingInFlight() {
        SoakJob job = accepted(Scenario.S3_OUTAGE);
        storage.put(JobLayout.markerKey(job.requestId()), json("{\"status\":\"queued\"}"));
        statuses.put(job.requestId(), "queued");

        SoakVerdict verdict = verdict();

        assertThat(verdict.broken()).isTrue();
        assertThat(verdict.rows().get(Scenario.S3_OUTAGE).stuck).isEqualTo(1);
    }

    private SoakJob accepted(Scenario scenario) {
        SoakJob job = new SoakJob(SoakJobs.newId(), scenario, false, true);
        job.submitted(1);
        job.accepted();
        jobs.add(job);
        return job;
    }

    private SoakJob succeeded(Scenario scenario) {
        SoakJob job = accepted(scenario);
        storage.put(JobLayout.markerKey(job.requestId()), json("{\"status\":\"running\"}"));
        storage.put(JobLayout.resultKey(job.requestId()), json("{\"status\":\"succeeded\"}"));
        job.resultWritten(2);
        statuses.put(job.requestId(), "succeeded");
        signed(job, "succeeded", null);
        prompts.add(SoakJobs.PROMPT_PREFIX + job.requestId() + " tells a short story");
        generated.add(SoakJobs.PROMPT_PREFIX + job.requestId() + " tells a short story");
        return job;
    }

    /** A poison message with a requestId: the dead-letter function wrote its failed result. */
    private void deadLettered(Scenario scenario) {
        SoakJob job = new SoakJob(SoakJobs.newId(), scenario, true, false);
        job.submitted(1);
        jobs.add(job);
        storage.put(JobLayout.resultKey(job.requestId()),
                json("{\"status\":\"failed\",\"error\":{\"code\":\"dead_lettered\"}}"));
        job.resultWritten(2);
        dlq.add(body(job.requestId()));
    }

    private void unattributablePoison(Scenario scenario, boolean inDeadLetterQueue) {
        String tag = "poison-tag-" + SoakJobs.newId();
        poisonTags.put(tag, scenario);
        if (inDeadLetterQueue) {
            dlq.add(SoakJobs.malformed(tag));
        }
    }

    private void signed(SoakJob job, String status, String errorCode) {
        callbacks.computeIfAbsent(job.requestId(), id -> new ArrayList<>())
                .add(new SoakVerdict.SignedCallback(status, errorCode));
    }

    private SoakVerdict verdict() {
        SoakVerdict.Callbacks received = new SoakVerdict.Callbacks() {
            @Override
            public List<SoakVerdict.SignedCallback> signed(String requestId) {
                return callbacks.getOrDefault(requestId, List.of());
            }

            @Override
            public int rejected() {
                return rejectedCallbacks;
            }
        };
        return SoakVerdict.of(jobs, new SoakVerdict.Evidence(key -> Optional.ofNullable(storage.get(key)),
                id -> Optional.ofNullable(statuses.get(id)), prompts, generated, received,
                new SoakVerdict.DeadLetters(dlq, stillInFlight), poisonTags, BOUND, true));
    }

    private static String body(String requestId) {
        return "{\"requestId\":\"" + requestId + "\",\"task\":\"generate\"}";
    }

    private static JsonNode json(String text) {
        try {
            return JobJson.mapper().readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
