package io.gpupipe.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/simulator.md's "Results" table is what its first command prints (every bundled trace and policy, seed 42, the
 * default platform, no levers): a change to the model or its figures that moves a number fails here until the page
 * is regenerated, instead of the page quietly describing another run.
 */
class DocumentedResultsTest {
    private static final Path PAGE = Path.of("..", "docs", "simulator.md");
    private static final String SECTION = "## Results";

    @Test
    void resultsTable_shouldBeTheDefaultRunsOutput() throws IOException {
        // given
        String documented = firstTableAfter(Files.readAllLines(PAGE), SECTION);
        Simulator simulator = new Simulator(Platform.defaults(), 42);
        List<RunResult> runs = new ArrayList<>();
        for (Trace trace : Traces.bundled(42)) {
            for (Policy policy : Policy.values()) {
                runs.add(simulator.run(trace, policy));
            }
        }

        // when
        String printed = Report.markdown(runs);

        // then
        assertThat(documented).as("the table under '%s' in %s; regenerate it with the page's first command "
                + "(simulator/target/simulator/results.md)", SECTION, PAGE).isEqualTo(printed);
    }

    /** The first Markdown table (its consecutive lines starting with '|') after the heading, each line ending "\n". */
    private static String firstTableAfter(List<String> lines, String heading) {
        int from = lines.indexOf(heading);
        assertThat(from).as("%s has the heading '%s'", PAGE, heading).isNotNegative();
        StringBuilder table = new StringBuilder();
        for (String line : lines.subList(from + 1, lines.size())) {
            if (line.startsWith("|")) {
                table.append(line).append('\n');
            } else if (!table.isEmpty()) {
                break;
            }
        }
        return table.toString();
    }

    @Test
    void firstTableAfter_shouldStopAtTheTablesEnd() {
        List<String> page = Arrays.asList("# Page", SECTION, "", "text", "| a |", "|---|", "| 1 |", "", "| other |");

        assertThat(firstTableAfter(page, SECTION)).isEqualTo("| a |\n|---|\n| 1 |\n");
    }
}
