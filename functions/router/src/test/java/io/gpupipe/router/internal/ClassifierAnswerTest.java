package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClassifierAnswerTest {
    private static final List<Tier> TEXT_TIERS = TierCatalogue.bundled().serving(Task.GENERATE);

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "LARGE               | large",
        "large               | large",
        "' Large.'           | large",
        "The answer is LARGE | large",
        "SMALL               | small",
        "small!              | small",
        "SMALL. Small.       | small"})
    void parse_shouldNameTheTier_whenAnswerHasOneTierWord(String answer, Tier expected) {
        assertThat(ClassifierAnswer.parse(answer, TEXT_TIERS)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "MEDIUM", "LARGER", "SMALLISH", "SMALL or LARGE", "It depends", "SPEECH"})
    void parse_shouldBeEmpty_whenAnswerIsUnparseable(String answer) {
        assertThat(ClassifierAnswer.parse(answer, TEXT_TIERS)).isEmpty();
    }

    @Test
    void parse_shouldNameAnyTextTierOfTheCatalogue_whenItHasAThird() {
        // today's SMALL|LARGE regex read "MEDIUM" as unparseable and sent the job small
        TierCatalogue bundled = TierCatalogue.bundled();
        TierCatalogue withMedium = bundled.withTier(bundled.get(Tier.of("small")).renamed("medium"));

        assertThat(ClassifierAnswer.parse("Medium.", withMedium.serving(Task.GENERATE))).contains(Tier.of("medium"));
        assertThat(ClassifierAnswer.parse("MEDIUM or LARGE", withMedium.serving(Task.GENERATE))).isEmpty();
    }

    @Test
    void parse_shouldBeEmpty_whenAnswerIsNull() {
        assertThat(ClassifierAnswer.parse(null, TEXT_TIERS)).isEmpty();
    }
}
