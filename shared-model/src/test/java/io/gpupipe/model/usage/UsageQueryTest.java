package io.gpupipe.model.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.model.FieldError;
import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every rule of a usage question's parameters, each refusal naming its parameter. */
class UsageQueryTest {
    private static final Instant NOW = Instant.parse("2026-12-03T20:15:00Z");

    private static UsageQuery.Outcome.Valid valid(String start, String end, String groupBy) {
        UsageQuery.Outcome outcome = UsageQuery.parse(start, end, groupBy, NOW);
        assertThat(outcome).as(outcome.toString()).isInstanceOf(UsageQuery.Outcome.Valid.class);
        return (UsageQuery.Outcome.Valid) outcome;
    }

    private static FieldError onlyError(String start, String end, String groupBy) {
        UsageQuery.Outcome outcome = UsageQuery.parse(start, end, groupBy, NOW);
        assertThat(outcome).as(outcome.toString()).isInstanceOf(UsageQuery.Outcome.Invalid.class);
        assertThat(((UsageQuery.Outcome.Invalid) outcome).errors()).hasSize(1);
        return ((UsageQuery.Outcome.Invalid) outcome).errors().get(0);
    }

    @Test
    void parse_shouldCoverWholeUtcDays_withAnExclusiveEnd() {
        UsageQuery.Outcome.Valid dates = valid("2026-12-01", "2026-12-03", null);
        assertThat(dates.range()).isEqualTo(new UsageRange(LocalDate.parse("2026-12-01"),
                LocalDate.parse("2026-12-02")));
        assertThat(dates.grouping()).isEmpty();

        UsageQuery.Outcome.Valid stamps = valid("2026-12-01T23:30:00+01:00", "2026-12-03T00:00:01Z", "day");
        assertThat(stamps.range()).isEqualTo(new UsageRange(LocalDate.parse("2026-12-01"),
                LocalDate.parse("2026-12-03")));
        assertThat(stamps.range().start()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
        assertThat(stamps.range().end()).isEqualTo(Instant.parse("2026-12-04T00:00:00Z"));
        assertThat(stamps.grouping()).contains(UsageGrouping.DAY);
    }

    @Test
    void parse_shouldEndNow_whenEndIsAbsent() {
        assertThat(valid("2026-12-01", null, "tier").range()).isEqualTo(new UsageRange(LocalDate.parse("2026-12-01"),
                LocalDate.parse("2026-12-03")));
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "null, 2026-12-02, start, required",
            "'', 2026-12-02, start, required",
            "yesterday, 2026-12-02, start, invalid_format",
            "2026-13-01, 2026-12-02, start, invalid_format",
            "2026-12-01T10:00:00, 2026-12-02, start, invalid_format",
            "2026-12-01, 12/02/2026, end, invalid_format",
            "2026-12-02, 2026-12-02, end, out_of_range",
            "2026-12-02, 2026-12-01, end, out_of_range",
            "2026-12-04T00:00:00Z, null, end, out_of_range",
            "2026-08-31, 2026-12-03, end, out_of_range"})
    void parse_shouldRefuseABadRange_namingTheField(String start, String end, String field, String code) {
        FieldError error = onlyError(start, end, null);

        assertThat(error.field()).isEqualTo(field);
        assertThat(error.code()).isEqualTo(code);
    }

    @Test
    void parse_shouldAcceptExactlyTheLongestRange() {
        LocalDate first = LocalDate.parse("2026-09-01");
        String endOfLongest = first.plusDays(UsageQuery.MAX_DAYS).toString();
        String oneMore = first.plusDays(UsageQuery.MAX_DAYS + 1).toString();

        assertThat(valid(first.toString(), endOfLongest, null).range().length()).isEqualTo(UsageQuery.MAX_DAYS);
        assertThat(onlyError(first.toString(), oneMore, null).message()).contains("94 days", "at most 93");
    }

    @ParameterizedTest
    @CsvSource({"week", "Day", "'tier,model'", "''"})
    void parse_shouldRefuseAGroupingOutsideTheClosedSet_namingGroupBy(String groupBy) {
        FieldError error = onlyError("2026-12-01", "2026-12-02", groupBy);

        assertThat(error.field()).isEqualTo("groupBy");
        assertThat(error.code()).isEqualTo("invalid_value");
        assertThat(error.message()).contains("day|tier|model");
    }

    @Test
    void parse_shouldNameEveryBadField_atOnce() {
        UsageQuery.Outcome outcome = UsageQuery.parse("soon", "later", "week", NOW);

        assertThat(((UsageQuery.Outcome.Invalid) outcome).errors()).extracting(FieldError::field)
                .containsExactly("start", "end", "groupBy");
    }

    @Test
    void monthToDate_shouldStartOnTheFirstOfTheUtcMonth() {
        assertThat(UsageRange.monthToDate(Instant.parse("2026-12-31T23:59:59Z"))).isEqualTo(new UsageRange(
                LocalDate.parse("2026-12-01"), LocalDate.parse("2026-12-31")));
        assertThat(UsageRange.monthToDate(NOW).days()).hasSize(3).first().isEqualTo(LocalDate.parse("2026-12-01"));
    }
}
