package io.gpupipe.router.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.router.internal.ClassifierAnswer;
import org.junit.jupiter.api.Test;

/** The classifier's instruction comes from the catalogue: every text tier it may answer is named, no other. */
class ClassifierPromptTest {
    private static final TierCatalogue BUNDLED = TierCatalogue.bundled();

    @Test
    void systemPrompt_shouldNameTheDefaultAndEscalationTiers_ofTheBundledCatalogue() {
        String prompt = BedrockConverseClassifier.systemPrompt(BUNDLED);

        assertThat(prompt).contains("SMALL if a small model can answer", "or LARGE if it needs the most capable")
                .doesNotContain("SPEECH");
    }

    @Test
    void systemPrompt_shouldOfferANewTextTier_andItsAnswerShouldParse_whenTheCatalogueGainsOne() {
        TierCatalogue withMedium = BUNDLED.withTier(BUNDLED.get(Tier.of("small")).renamed("medium"));

        String prompt = BedrockConverseClassifier.systemPrompt(withMedium);

        assertThat(prompt).contains("or MEDIUM for requests in between");
        assertThat(ClassifierAnswer.parse("MEDIUM.", withMedium.serving(io.gpupipe.model.Task.GENERATE)))
                .contains(Tier.of("medium"));
    }
}
