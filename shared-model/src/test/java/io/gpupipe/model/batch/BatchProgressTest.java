package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.BatchIds;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.owner.OwnerIds;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BatchProgressTest {
    private static final Owner ANONYMOUS_OWNER = OwnerIds.UNKEYED.of(CallerIdentity.ANONYMOUS);
    private static final String ID = BatchIds.newBatchId(UUID.fromString("6e5d4c3b-2a1f-4e0d-9c8b-7a6f5e4d3c2b"));

    @Test
    void chunkProgress_shouldCountEachLineOnce_andLetAResultWinOverACancel() {
        // given: line 3 was cancelled but its job still ran (its result is the truth)
        List<String> keys = List.of(BatchLayout.doneKey(ID, 2, 1, LineOutcome.SUCCEEDED),
                BatchLayout.doneKey(ID, 2, 2, LineOutcome.INVALID), BatchLayout.doneKey(ID, 2, 3, LineOutcome.CANCELLED),
                BatchLayout.doneKey(ID, 2, 3, LineOutcome.FAILED), "batches/" + ID + "/done/00002/garbage");

        // when
        ChunkProgress progress = ChunkProgress.ofKeys(keys);

        // then
        assertThat(progress.isComplete(3)).isTrue();
        assertThat(progress.isComplete(4)).isFalse();
        assertThat(progress.counts()).isEqualTo(new LineCounts(1, 1, 0, 0, 1));
    }

    @Test
    void batchProgress_shouldSumEndedChunksAndTheLatestProgressOfRunningOnes_fromTheirKeys() {
        // given
        BatchPlan plan = new BatchPlan(2500, List.of(new ChunkPlan(0, 1, 0, 1, 1000, List.of()),
                new ChunkPlan(1, 1001, 1, 2, 1000, List.of()), new ChunkPlan(2, 2001, 2, 3, 500, List.of())));
        List<String> ended = List.of(BatchLayout.endedKey(ID, 0, new LineCounts(990, 5, 1, 0, 4)),
                BatchLayout.endedKey(ID, 2, new LineCounts(500, 0, 0, 0, 0)));
        // chunk 1 is running: a lingering older progress record, and the latest; chunk 2's is stale (it ended)
        List<String> running = List.of(BatchLayout.progressKey(ID, 1, new LineCounts(1, 0, 0, 0, 0)),
                BatchLayout.progressKey(ID, 1, new LineCounts(1, 1, 0, 0, 0)),
                BatchLayout.progressKey(ID, 2, new LineCounts(7, 0, 0, 0, 0)));

        // when
        BatchProgress progress = BatchProgress.ofKeys(ended, running);

        // then
        assertThat(progress.running(plan)).containsExactly(1);
        assertThat(progress.allEnded(plan)).isFalse();
        assertThat(progress.counts().toRequestCounts(plan.lines()))
                .isEqualTo(new RequestCounts(2500, 1491, 11));
        assertThat(BatchLayout.parseCountsKey(ended.get(0)).orElseThrow().counts())
                .isEqualTo(new LineCounts(990, 5, 1, 0, 4));
    }

    @Test
    void layout_shouldOnlyRecogniseOwnKeys() {
        assertThat(BatchLayout.batchIdOfFinalKey(BatchLayout.finalKey(ID))).contains(ID);
        assertThat(BatchLayout.batchIdOfFinalKey("batches/batch_x/final.json")).isEmpty();
        assertThat(BatchLayout.batchIdOfFinalKey("results/" + ID + "/final.json")).isEmpty();
        assertThat(BatchLayout.isInputKey(BatchLayout.inputKey(ANONYMOUS_OWNER, UUID.randomUUID()))).isTrue();
        assertThat(BatchLayout.isInputKey("results/x.json")).isFalse();
        assertThat(BatchLayout.isInputKey("batch-inputs/../results/7d8e9f0a-1b2c-4d3e-8f4a-5b6c7d8e9f0a.jsonl"))
                .isFalse();
    }
}
