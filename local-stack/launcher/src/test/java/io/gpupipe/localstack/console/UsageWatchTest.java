package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The console's usage page: every caller's records of the month, named when a local caller, counted once each. */
class UsageWatchTest {
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");
    /** Owner ids as a stack's router derives them, keyed with its deployment key. */
    private static final OwnerIds OWNER_IDS = DeploymentKey.of(DeploymentKey.generateText()).ownerIds();
    private static final Owner A = OWNER_IDS.of(new CallerIdentity.Jwt(LocalCallers.ISSUER, LocalCallers.CALLER_A));
    private static final Owner OTHER = OWNER_IDS.of(new CallerIdentity.Jwt("https://elsewhere", "x"));

    private static String key(Owner owner, String day, long completionTokens) {
        return UsageLayout.recordKey(owner, new UsageRecord(UUID.randomUUID().toString(), LocalDate.parse(day),
                JobStatus.SUCCEEDED, "small", "m", 1, completionTokens, 1_000, false));
    }

    @Test
    void usage_shouldSumEachCallersMonth_andNameTheLocalCallers() {
        // given: records of this month, one of last month, and a key that is no record
        String last = key(A, "2026-12-02", 10);
        List<String> keys = List.of(key(A, "2026-12-01", 5), last, key(A, "2026-11-30", 1_000),
                key(OTHER, "2026-12-03", 7), UsageLayout.RECORDS_PREFIX + A.hex() + "/2026-12-01/readme.txt",
                UsageLayout.RECORDS_PREFIX + "junk");
        UsageWatch watch = new UsageWatch(prefix -> keys.stream().filter(k -> k.startsWith(prefix)).toList(),
                TierCatalogue.bundled(), Clock.fixed(NOW, ZoneOffset.UTC), OWNER_IDS);

        // when
        JsonNode usage = watch.usage();

        // then
        assertThat(usage.path("start").asText()).isEqualTo("2026-12-01T00:00:00Z");
        JsonNode callers = usage.path("callers");
        assertThat(callers).hasSize(2);
        JsonNode a = callers.findParents("owner").stream().filter(c -> c.path("owner").asText().equals(A.hex()))
                .findFirst().orElseThrow();
        assertThat(a.path("caller").asText()).isEqualTo("caller-a");
        assertThat(a.at("/total/jobs/succeeded").asLong()).isEqualTo(2);
        assertThat(a.at("/total/completionTokens").asLong()).isEqualTo(15);
        JsonNode other = callers.findParents("owner").stream().filter(c -> c.path("owner").asText()
                .equals(OTHER.hex())).findFirst().orElseThrow();
        assertThat(other.path("caller").asText()).startsWith(OTHER.hex().substring(0, 12));
        assertThat(other.at("/total/estimatedCostUsd").asDouble()).isPositive();
    }
}
