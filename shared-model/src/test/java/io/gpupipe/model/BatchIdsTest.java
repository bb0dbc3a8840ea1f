package io.gpupipe.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.RequestIds;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BatchIdsTest {
    private static final String BATCH = BatchIds.newBatchId(UUID.fromString("3f2b9c1e-8d4a-4b6f-9e2d-7a1c5b8e0f3d"));

    @Test
    void jobId_shouldBeTheSameValidV4Id_whenTheSameLineIsReadAgain() {
        // when
        String first = BatchIds.jobId(BATCH, 17);
        String again = BatchIds.jobId(BATCH, 17);

        // then: the router's validator accepts it, and a redelivered chunk names the same job
        assertThat(first).isEqualTo(again);
        assertThat(RequestIds.isValid(first)).isTrue();
        assertThat(first).isEqualTo(RequestIds.normalize(first));
    }

    @Test
    void jobId_shouldDiffer_forEveryLineAndEveryBatch() {
        // given
        String other = BatchIds.newBatchId(UUID.randomUUID());
        Set<String> ids = new HashSet<>();

        // when
        for (int line = 1; line <= 10_000; line++) {
            ids.add(BatchIds.jobId(BATCH, line));
            ids.add(BatchIds.jobId(other, line));
        }

        // then
        assertThat(ids).hasSize(20_000);
    }

    @Test
    void batchId_shouldBeValid_onlyForBatchPrefixAndLowerCaseUuidV4() {
        assertThat(BatchIds.isValidBatchId(BATCH)).isTrue();
        assertThat(BatchIds.isValidBatchId(BATCH.toUpperCase())).isFalse();
        assertThat(BatchIds.isValidBatchId("batch_abc123")).isFalse();
        assertThat(BatchIds.isValidBatchId(BATCH.substring(BatchIds.PREFIX.length()))).isFalse();
        assertThat(BatchIds.isValidBatchId("batch_../../jobs/x")).isFalse();
    }

    @Test
    void lineId_shouldUseOpenAisPrefix() {
        assertThat(BatchIds.lineId(BATCH, 1)).startsWith("batch_req_").doesNotContain("-").hasSize(42);
    }
}
