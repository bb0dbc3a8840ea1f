package io.gpupipe.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code seed} and {@code cache} fields of a request, and the cacheability rule the parser enforces. */
class CacheRequestParsingTest {
    private static final JobRequestParser PARSER = new JobRequestParser();

    @Test
    void parse_shouldKeepSeedAndCache_whenADeterministicTextJobAsksForTheCache() {
        InferenceJob job = valid("{\"prompt\":\"Hi\",\"temperature\":0.9,\"seed\":42,\"cache\":true}");
        assertThat(job.seed()).isEqualTo(42);
        assertThat(job.cache()).isTrue();
        assertThat(valid("{\"prompt\":\"Hi\"}").cache()).isNull();
        assertThat(valid("{\"prompt\":\"Hi\",\"temperature\":0,\"cache\":true}").cache()).isTrue();
        assertThat(valid("{\"prompt\":\"Hi\",\"cache\":false}").cache()).isFalse();
        assertThat(valid("{\"task\":\"speech\",\"prompt\":\"Hi\",\"cache\":true}").cache()).isTrue();
    }

    @Test
    void parse_shouldRefuseCacheNamingWhy_whenTheTextJobSamplesWithoutASeed() {
        List<FieldError> errors = invalid("{\"prompt\":\"Hi\",\"temperature\":0.7,\"cache\":true}");
        assertThat(errors).extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cache", ErrorCodes.NOT_CACHEABLE));
        assertThat(errors.get(0).message()).contains("temperature 0 or an explicit seed")
                .contains("temperature 0.7 and no seed");
        assertThat(invalid("{\"prompt\":\"Hi\",\"cache\":true}").get(0).message())
                .as("the default temperature is not 0").contains("temperature 0.7 and no seed");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"prompt\":\"Hi\",\"seed\":-1}|seed|out_of_range",
        "{\"prompt\":\"Hi\",\"seed\":2147483648}|seed|out_of_range",
        "{\"prompt\":\"Hi\",\"seed\":1.5}|seed|invalid_type",
        "{\"prompt\":\"Hi\",\"seed\":\"7\"}|seed|invalid_type",
        "{\"task\":\"speech\",\"prompt\":\"Hi\",\"seed\":7}|seed|not_applicable",
        "{\"prompt\":\"Hi\",\"cache\":\"true\"}|cache|invalid_type",
        "{\"prompt\":\"Hi\",\"cache\":1}|cache|invalid_type",
        "{\"prompt\":\"Hi\",\"temperature\":9,\"cache\":true}|temperature|out_of_range",
        "{\"prompt\":\"Hi\",\"temperature\":0.5,\"seed\":-4,\"cache\":true}|seed|out_of_range"})
    void parse_shouldReportOneErrorOnTheBadField_whenSeedOrCacheIsWrong(String body, String field, String code) {
        assertThat(invalid(body)).extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(field, code));
    }

    private static InferenceJob valid(String body) {
        JobRequestParser.Outcome outcome = PARSER.parse(body, JobRequestParser.Source.API);
        assertThat(outcome).as(body).isInstanceOf(JobRequestParser.Outcome.Valid.class);
        return ((JobRequestParser.Outcome.Valid) outcome).job();
    }

    private static List<FieldError> invalid(String body) {
        JobRequestParser.Outcome outcome = PARSER.parse(body, JobRequestParser.Source.API);
        assertThat(outcome).as(body).isInstanceOf(JobRequestParser.Outcome.Invalid.class);
        return ((JobRequestParser.Outcome.Invalid) outcome).errors();
    }
}
