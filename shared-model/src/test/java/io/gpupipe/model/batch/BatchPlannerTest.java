package io.gpupipe.model.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.BatchLimits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatchPlannerTest {

    @Test
    void plan_shouldCutChunksAtTheLineLimit_andEachRangeShouldReadBackTheSameLines() throws IOException {
        // given: 7 lines, a blank one and CRLF endings, chunks of 3 lines
        String file = line("a") + line("b") + "\r\n" + line("c") + line("d") + line("e") + line("f") + line("g");
        byte[] bytes = file.getBytes(StandardCharsets.UTF_8);

        // when
        BatchPlan plan = planned(new BatchPlanner(100, 3, 1 << 20), bytes);

        // then
        assertThat(plan.lines()).isEqualTo(7);
        assertThat(plan.chunks()).extracting(ChunkPlan::lines).containsExactly(3, 3, 1);
        assertThat(plan.chunks()).extracting(ChunkPlan::firstLine).containsExactly(1, 5, 8);
        assertThat(plan.chunk(2).byteEnd()).isEqualTo(bytes.length);
        List<String> reread = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (ChunkPlan chunk : plan.chunks()) {
            JsonlReader reader = new JsonlReader(new ByteArrayInputStream(Arrays.copyOfRange(bytes,
                    (int) chunk.byteStart(), (int) chunk.byteEnd())), chunk.firstLine(), chunk.byteStart(), 1 << 20);
            for (var next = reader.next(); next.isPresent(); next = reader.next()) {
                reread.add(((JsonlReader.Line.Text) next.get()).text());
                numbers.add(next.get().number());
            }
        }
        assertThat(reread).containsExactly(json("a"), json("b"), json("c"), json("d"), json("e"), json("f"),
                json("g"));
        assertThat(numbers).containsExactly(1, 2, 4, 5, 6, 7, 8);
    }

    @Test
    void plan_shouldCloseAChunk_whenItsBytesReachTheLimit() throws IOException {
        // given: lines of 33 bytes; a chunk closes once it holds 90 bytes or more
        String file = line("a") + line("b") + line("c") + line("d");

        // when
        BatchPlan plan = planned(new BatchPlanner(100, 1000, 90), file.getBytes(StandardCharsets.UTF_8));

        // then
        assertThat(plan.chunks()).extracting(ChunkPlan::lines).containsExactly(3, 1);
    }

    @Test
    void plan_shouldNoteRepeatedCustomIds_inTheChunkOfTheRepeat() throws IOException {
        // given
        String file = line("a") + line("b") + line("a") + line("c") + line("b");

        // when
        BatchPlan plan = planned(new BatchPlanner(100, 2, 1 << 20), file.getBytes(StandardCharsets.UTF_8));

        // then
        assertThat(plan.chunk(0).duplicates()).isEmpty();
        assertThat(plan.chunk(1).duplicates()).containsExactly(new ChunkPlan.Duplicate(3, 1));
        assertThat(plan.chunk(2).duplicates()).containsExactly(new ChunkPlan.Duplicate(5, 2));
    }

    @Test
    void plan_shouldRefuse_whenTheFileHoldsNoLineOrTooMany() throws IOException {
        // when
        var empty = new BatchPlanner().plan(new ByteArrayInputStream("\n \n".getBytes(StandardCharsets.UTF_8)));
        var tooMany = new BatchPlanner(2, 1000, 1 << 20).plan(new ByteArrayInputStream((line("a") + line("b")
                + line("c")).getBytes(StandardCharsets.UTF_8)));

        // then
        assertThat(((BatchPlanner.Outcome.Refused) empty).error().code()).isEqualTo("empty_file");
        BatchError refused = ((BatchPlanner.Outcome.Refused) tooMany).error();
        assertThat(refused.code()).isEqualTo("too_many_lines");
        assertThat(refused.line()).isEqualTo(3);
        assertThat(BatchPlanner.checkSize(BatchLimits.MAX_FILE_BYTES)).isEmpty();
        assertThat(BatchPlanner.checkSize(BatchLimits.MAX_FILE_BYTES + 1)).map(BatchError::code)
                .contains("file_too_large");
    }

    @Test
    void reader_shouldSkipAndReport_aLineOverTheLimit() throws IOException {
        // given
        String file = line("a") + "{\"custom_id\":\"" + "x".repeat(200) + "\"}\n" + line("b");
        JsonlReader reader = new JsonlReader(new ByteArrayInputStream(file.getBytes(StandardCharsets.UTF_8)), 1, 0,
                100);

        // when
        List<JsonlReader.Line> lines = new ArrayList<>();
        for (Optional<JsonlReader.Line> next = reader.next(); next.isPresent(); next = reader.next()) {
            lines.add(next.get());
        }

        // then
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isInstanceOf(JsonlReader.Line.TooLong.class);
        assertThat(lines.get(1).number()).isEqualTo(2);
        assertThat(((JsonlReader.Line.Text) lines.get(2)).text()).isEqualTo(json("b"));
    }

    private static BatchPlan planned(BatchPlanner planner, byte[] bytes) throws IOException {
        return ((BatchPlanner.Outcome.Planned) planner.plan(new ByteArrayInputStream(bytes))).plan();
    }

    private static String json(String id) {
        return "{\"custom_id\":\"" + id + "\",\"method\":\"POST\"}";
    }

    private static String line(String id) {
        return json(id) + "\n";
    }
}
