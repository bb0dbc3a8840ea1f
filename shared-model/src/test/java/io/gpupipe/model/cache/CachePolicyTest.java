package io.gpupipe.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.JobJson;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.TierDefinition;
import io.gpupipe.model.job.InferenceJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CachePolicyTest {
    private static final TierDefinition SMALL = TierCatalogue.bundled().get(Tier.of("small"));
    private static final TierDefinition SPEECH = TierCatalogue.bundled().get(Tier.of("speech"));

    @ParameterizedTest(name = "temperature {0}, seed {1}, cache {2}, tier default {3} -> {4}")
    @CsvSource(nullValues = "-", value = {
        "0.0, -, true, false, true",
        "0.0, -, -, false, false",
        "0.0, -, -, true, true",
        "0.0, -, false, true, false",
        "0.7, 42, true, false, true",
        "0.7, 42, -, true, true",
        "0.7, -, -, true, false",
        "0.7, -, true, true, false",
        "1.5, 0, true, false, true"})
    void applies_shouldCacheOnlyDeterministicTextJobsThatAskOrWhoseTierDefaultsToIt(
            double temperature, Integer seed, Boolean cache, boolean tierDefault, boolean expected) {
        // given
        InferenceJob job = text(temperature, seed, cache);
        // when, then
        assertThat(CachePolicy.applies(job, SMALL.withCacheByDefault(tierDefault))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "cache {0}, tier default {1} -> {2}")
    @CsvSource(nullValues = "-", value = {"true, false, true", "-, true, true", "-, false, false",
        "false, true, false"})
    void applies_shouldTreatSpeechAsDeterministic_becauseTheSpeechApiTakesNoSamplingParameters(
            Boolean cache, boolean tierDefault, boolean expected) {
        // given: the default temperature 0.7, which the speech server never sees
        InferenceJob job = JobJson.read("{\"requestId\":\"5b3f1d2e-8c4a-4f6b-9a2d-1e0c3b4a5d6f\",\"task\":\"speech\","
                + "\"prompt\":\"Hello\",\"temperature\":0.7" + (cache == null ? "" : ",\"cache\":" + cache) + "}",
                InferenceJob.class);
        // when, then
        assertThat(CachePolicy.applies(job, SPEECH.withCacheByDefault(tierDefault))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(nullValues = "-", value = {"-, false", "'', false", "'  ', false", "m@abc+tag, true"})
    void knownVersion_shouldBeEmpty_whenTheVersionIsAbsentOrBlank(String version, boolean known) {
        assertThat(CachePolicy.knownVersion(version).isPresent()).isEqualTo(known);
    }

    private static InferenceJob text(double temperature, Integer seed, Boolean cache) {
        return new InferenceJob("5b3f1d2e-8c4a-4f6b-9a2d-1e0c3b4a5d6f", Task.GENERATE, "Hi", 16, temperature, 1.0,
                null, null, null, null, null, null, null, null, null, null, seed, cache, null);
    }
}
