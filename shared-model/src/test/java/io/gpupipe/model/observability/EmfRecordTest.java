package io.gpupipe.model.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.TierCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmfRecordTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void toJson_shouldDeclareEachRollUpAsAnotherDimensionSet() {
        JsonNode line = JobJson.read(EmfRecord.namespace("Ns").dimension("Tier", "small").dimension("Outcome", "ok")
                .rollUp("Tier").metric("X", 1, EmfRecord.Unit.Count).toJson(NOW), JsonNode.class);
        JsonNode sets = line.at("/_aws/CloudWatchMetrics/0/Dimensions");
        assertThat(sets.size()).isEqualTo(2);
        assertThat(names(sets.get(0))).containsExactly("Tier", "Outcome");
        assertThat(names(sets.get(1))).containsExactly("Tier");
    }

    @Test
    void toJson_shouldWriteCloudWatchUnitNames() {
        JsonNode line = JobJson.read(EmfRecord.namespace("Ns").dimension("Tier", "small")
                .metric("TokensPerSecond", 12.5, EmfRecord.Unit.CountPerSecond).toJson(NOW), JsonNode.class);
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Metrics/0/Unit").asText()).isEqualTo("Count/Second");
        assertThat(line.path("TokensPerSecond").asDouble()).isEqualTo(12.5);
    }

    @Test
    void rollUp_shouldRefuseANameThatIsNotADimension() {
        assertThatThrownBy(() -> EmfRecord.namespace("Ns").dimension("Tier", "small").rollUp("requestId"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void p99SubmitToResultObjective_shouldBeColdStartPlusModelTimeout_forEveryCatalogueTier() {
        TierCatalogue.bundled().tiers().forEach(tier -> assertThat(JobMetrics.p99SubmitToResultObjective(tier))
                .isEqualTo(tier.modelLoadGrace().plus(tier.modelTimeout())).isGreaterThan(Duration.ofMinutes(1)));
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(n -> names.add(n.asText()));
        return names;
    }
}
