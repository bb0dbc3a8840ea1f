package io.gpupipe.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A YAML template cannot read shared-model's tier catalogue, so its per-tier blocks are generated
 * ({@link SamTierBlocks}) and this test makes drift a failure that shows the difference and the command that fixes it.
 * Outside the generated blocks the template names no tier.
 */
class SamTemplateTiersTest {
    static final Path TEMPLATE = Path.of("..", "sam-template.yaml");
    private static final TierCatalogue CATALOGUE = TierCatalogue.bundled();

    @Test
    void template_shouldHoldTheTierBlocksTheCatalogueGives() throws IOException {
        String template = Files.readString(TEMPLATE);

        String generated = SamTierBlocks.render(template, CATALOGUE);

        assertThat(difference(template, generated))
                .as("sam-template.yaml's tier blocks differ from tiers.json; rewrite them with cdk/sam-tiers.sh")
                .isEmpty();
    }

    @Test
    void template_shouldNameNoTier_outsideItsGeneratedBlocks() throws IOException {
        String handWritten = Files.readString(TEMPLATE).replaceAll("(?s)# BEGIN tiers/.*?# END tiers/", "");

        for (TierDefinition tier : CATALOGUE.tiers()) {
            assertThat(handWritten.toLowerCase(Locale.ROOT)).as(tier.tier().wireName())
                    .doesNotContainPattern("\\b" + tier.tier().wireName() + "\\b");
        }
    }

    @Test
    void render_shouldDropATiersBlocks_whenTheCatalogueLosesIt() throws IOException {
        String template = Files.readString(TEMPLATE);
        TierDefinition last = CATALOGUE.tiers().get(CATALOGUE.tiers().size() - 1);
        String name = SamTierBlocks.logicalName(last.tier());
        List<TierDefinition> without = CATALOGUE.tiers().subList(0, CATALOGUE.tiers().size() - 1);

        String rendered = SamTierBlocks.render(template, without);

        assertThat(template).contains(name + "Queue:");
        assertThat(rendered).doesNotContain(name + "Queue", name + "MaxTasks", "_" + last.tier().envName() + ":");
        assertThat(difference(template, rendered)).isNotEmpty();
    }

    @Test
    void template_shouldHaveOneQueuePerTier_andFiveOthers() {
        // the DLQ, the callback retry queue, the function-failure queue, the batch queue and its DLQ
        assertThat(SamTemplateTest.include().findResources("AWS::SQS::Queue")).hasSize(CATALOGUE.tiers().size() + 5);
    }

    /** The lines that differ, as {@code line N: -old / +new}; empty when the texts are equal. */
    static List<String> difference(String actual, String expected) {
        String[] a = actual.split("\n", -1);
        String[] e = expected.split("\n", -1);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.max(a.length, e.length) && out.size() < 40; i++) {
            String left = i < a.length ? a[i] : "<end of file>";
            String right = i < e.length ? e[i] : "<end of file>";
            if (!left.equals(right)) {
                out.add("line " + (i + 1) + ":\n  file:      " + left + "\n  generated: " + right);
            }
        }
        return out;
    }
}
