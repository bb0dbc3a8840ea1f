package io.gpupipe.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.job.JobRequestParser;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The tier catalogue: the bundled tiers, its consistency rules, and route validation against it. */
class TierCatalogueTest {
    private static final String ID = "550e8400-e29b-41d4-a716-446655440000";
    private final TierCatalogue bundled = TierCatalogue.bundled();

    @Test
    void bundled_shouldHoldSeedTiersTheSpeechTierAndTheEmbeddingTier() {
        assertThat(bundled.names()).containsExactly(Tier.of("small"), Tier.of("large"), Tier.of("speech"),
                Tier.of("embed"));
        assertThat(bundled.defaultTier(Task.EMBED)).isEqualTo(Tier.of("embed"));
        assertThat(bundled.get(Tier.of("embed")).contract()).isEqualTo(ModelServerContract.EMBEDDING);
        assertThat(bundled.defaultTier(Task.GENERATE)).isEqualTo(Tier.of("small"));
        assertThat(bundled.escalationTier()).isEqualTo(Tier.of("large"));
        assertThat(bundled.defaultTier(Task.SPEECH)).isEqualTo(Tier.of("speech"));
        assertThat(bundled.get(Tier.of("speech")).contract()).isEqualTo(ModelServerContract.SPEECH);
        assertThat(bundled.get(Tier.of("large")).modelTimeout()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void read_shouldRefuseATierWhoseContractCannotRunItsTask() {
        String json = """
                {"routing": {"default": {"generate": "small", "speech": "small"}, "escalation": "small"},
                 "tiers": [{"name": "small", "queue": "q", "contract": "text", "serves": ["generate", "speech"],
                   "modelTimeoutSeconds": 60, "visibilityTimeoutSeconds": 60, "gpus": "1", "gpuMemoryMiB": 1000,
                   "taskCpu": 1024, "taskMemoryMiB": 1024, "maxTasks": 1, "backlogPerTask": 5,
                   "maxScaleOutStep": 1, "scaleInAfterMinutes": 1, "modelLoadGraceMinutes": 1}]}
                """;

        assertThatThrownBy(() -> TierCatalogue.parse(json))
                .hasMessage("tier small: a text model server cannot run speech jobs");
    }

    @Test
    void constructor_shouldRefuseADefaultTierThatDoesNotServeTheTask() {
        assertThatThrownBy(() -> bundled.withRouting(Task.SPEECH, Tier.of("small"), Tier.of("large")))
                .hasMessage("routing.default.speech = small is not a tier that serves speech");
    }

    @Test
    void parse_shouldRejectARouteThatCannotServeTheTask_namingRoute() {
        var outcome = new JobRequestParser().parse("""
                {"requestId": "%s", "task": "speech", "prompt": "hello", "route": "large"}""".formatted(ID),
                JobRequestParser.Source.API);

        assertThat(outcome).isInstanceOf(JobRequestParser.Outcome.Invalid.class);
        assertThat(((JobRequestParser.Outcome.Invalid) outcome).errors()).singleElement().satisfies(e -> {
            assertThat(e.field()).isEqualTo("route");
            assertThat(e.message()).isEqualTo("route large cannot serve speech jobs; tiers serving speech: speech");
        });
    }

    @Test
    void queueParser_shouldRefuseATaskItsTierDoesNotServe_namingTaskAndTier() {
        JobRequestParser smallQueue = new JobRequestParser().forQueueOf(Tier.of("small"));
        JobRequestParser speechQueue = new JobRequestParser().forQueueOf(Tier.of("speech"));
        String speechJob = "{\"requestId\": \"" + ID + "\", \"task\": \"speech\", \"prompt\": \"hello\"}";
        String textJob = "{\"requestId\": \"" + ID + "\", \"prompt\": \"hello\"}";

        assertThat(smallQueue.parse(speechJob, JobRequestParser.Source.QUEUE)).isInstanceOfSatisfying(
                JobRequestParser.Outcome.Invalid.class, invalid -> {
                    assertThat(invalid.requestId()).contains(ID);
                    assertThat(invalid.errors()).singleElement().isEqualTo(new FieldError("task",
                            ErrorCodes.NOT_SERVED, "tier small cannot serve speech jobs; tiers serving speech: speech"));
                });
        // a job without a task is a generate job, which the speech tier does not serve either
        assertThat(speechQueue.parse(textJob, JobRequestParser.Source.QUEUE)).isInstanceOfSatisfying(
                JobRequestParser.Outcome.Invalid.class, invalid -> assertThat(invalid.errors()).singleElement()
                        .satisfies(e -> assertThat(e.message()).isEqualTo(
                                "tier speech cannot serve generate jobs; tiers serving generate: small, large")));
        assertThat(smallQueue.parse(textJob, JobRequestParser.Source.QUEUE))
                .isInstanceOf(JobRequestParser.Outcome.Valid.class);
        assertThat(speechQueue.parse(speechJob, JobRequestParser.Source.QUEUE))
                .isInstanceOf(JobRequestParser.Outcome.Valid.class);
        // the router's parser takes every task: it routes them
        assertThat(new JobRequestParser().parse(speechJob, JobRequestParser.Source.QUEUE))
                .isInstanceOf(JobRequestParser.Outcome.Valid.class);
    }

    @Test
    void queueParser_shouldReportAnUnknownTaskOnce_andRefuseATierTheCatalogueLacks() {
        var outcome = new JobRequestParser().forQueueOf(Tier.of("small")).parse("{\"requestId\": \"" + ID
                + "\", \"task\": \"transcode\", \"prompt\": \"hello\"}", JobRequestParser.Source.QUEUE);

        assertThat(((JobRequestParser.Outcome.Invalid) outcome).errors()).extracting(FieldError::code)
                .containsExactly(ErrorCodes.INVALID_VALUE);
        assertThatThrownBy(() -> new JobRequestParser().forQueueOf(Tier.of("medium")))
                .hasMessageStartingWith("unknown tier medium");
    }

    @Test
    void parse_shouldAcceptAnyConfiguredTierServingTheTask_andRefuseUnknownOnes() {
        TierCatalogue withMedium = bundled.withTier(bundled.get(Tier.of("small")).renamed("medium"));
        var parser = new JobRequestParser(UUID::randomUUID, withMedium);
        String body = "{\"requestId\": \"" + ID + "\", \"prompt\": \"hello\", \"route\": \"medium\"}";

        assertThat(parser.parse(body, JobRequestParser.Source.API)).isInstanceOfSatisfying(
                JobRequestParser.Outcome.Valid.class, v -> assertThat(v.job().route()).isEqualTo(Tier.of("medium")));
        assertThat(new JobRequestParser().parse(body, JobRequestParser.Source.API)).isInstanceOfSatisfying(
                JobRequestParser.Outcome.Invalid.class, i -> assertThat(i.errors()).singleElement()
                        .satisfies(e -> assertThat(e.message())
                                .isEqualTo("route must be one of: small, large, speech, embed; got \"medium\"")));
    }

    @Test
    void read_shouldTakeAnOptionalGpuHourPrice_andRefuseOneThatIsNotAPositiveNumber() {
        String tier = """
                {"routing": {"default": {"generate": "small", "speech": "speech", "embed": "embed"},
                  "escalation": "small"},
                 "tiers": [{"name": "small", "queue": "q", "contract": "text", "serves": ["generate"],
                   "modelTimeoutSeconds": 60, "visibilityTimeoutSeconds": 60, "gpus": "0.5", "gpuMemoryMiB": 1000,
                   "taskCpu": 1024, "taskMemoryMiB": 1024, "maxTasks": 1, "backlogPerTask": 5,
                   "maxScaleOutStep": 1, "scaleInAfterMinutes": 1, "modelLoadGraceMinutes": 1 %s},
                   {"name": "speech", "queue": "s", "contract": "speech", "serves": ["speech"],
                   "modelTimeoutSeconds": 60, "visibilityTimeoutSeconds": 60, "gpus": "1", "gpuMemoryMiB": 1000,
                   "taskCpu": 1024, "taskMemoryMiB": 1024, "maxTasks": 1, "backlogPerTask": 5,
                   "maxScaleOutStep": 1, "scaleInAfterMinutes": 1, "modelLoadGraceMinutes": 1},
                   {"name": "embed", "queue": "e", "contract": "embedding", "serves": ["embed"],
                   "modelTimeoutSeconds": 60, "visibilityTimeoutSeconds": 60, "gpus": "1", "gpuMemoryMiB": 1000,
                   "taskCpu": 1024, "taskMemoryMiB": 1024, "maxTasks": 1, "backlogPerTask": 5,
                   "maxScaleOutStep": 1, "scaleInAfterMinutes": 1, "modelLoadGraceMinutes": 1}]}
                """;

        assertThat(TierCatalogue.parse(tier.formatted(", \"gpuHourUsd\": 2.5")).gpuHourUsd(Tier.of("small")))
                .contains(2.5);
        assertThat(TierCatalogue.parse(tier.formatted("")).gpuHourUsd(Tier.of("small"))).isEmpty();
        assertThatThrownBy(() -> TierCatalogue.parse(tier.formatted(", \"gpuHourUsd\": \"2.5\"")))
                .hasMessage("tier small: gpuHourUsd must be a number, got \"2.5\"");
        assertThatThrownBy(() -> TierCatalogue.parse(tier.formatted(", \"gpuHourUsd\": 0")))
                .hasMessageContaining("gpuHourUsd must be a price > 0");
    }
}
