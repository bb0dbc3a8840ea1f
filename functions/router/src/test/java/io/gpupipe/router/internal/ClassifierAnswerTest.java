package io.gpupipe.router.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ClassifierAnswerTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "LARGE               | LARGE",
        "large               | LARGE",
        "' Large.'           | LARGE",
        "The answer is LARGE | LARGE",
        "SMALL               | SMALL",
        "small!              | SMALL",
        "SMALL. Small.       | SMALL"})
    void parse_shouldNameTheTier_whenAnswerHasOneTierWord(String answer, Tier expected) {
        assertThat(ClassifierAnswer.parse(answer)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "MEDIUM", "LARGER", "SMALLISH", "SMALL or LARGE", "It depends"})
    void parse_shouldBeEmpty_whenAnswerIsUnparseable(String answer) {
        assertThat(ClassifierAnswer.parse(answer)).isEmpty();
    }

    @Test
    void parse_shouldBeEmpty_whenAnswerIsNull() {
        assertThat(ClassifierAnswer.parse(null)).isEmpty();
    }
}
