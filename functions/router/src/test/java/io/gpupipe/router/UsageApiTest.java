package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.DaySummary;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRecord;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code GET /v1/usage} on S3Proxy: the caller's own records only, summed by day, tier or model; settled days read
 * from (and first written to) their summary; every bad parameter a 400 naming it.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class UsageApiTest extends LocalAwsProbeSetup {
    /** The tests' caller: the router's test profile takes requests without an authorizer as the anonymous caller. */
    private Owner caller;
    private Owner someoneElse;
    private final LocalDate today = LocalDate.now(ZoneOffset.UTC);

    @BeforeEach
    void forgetUsage() {
        // owner ids as the router derives them: keyed with the local stack's deployment key
        caller = aws.ownerIds().of(CallerIdentity.ANONYMOUS);
        someoneElse = aws.ownerIds().of(new CallerIdentity.Jwt("https://issuer", "someone-else"));
        try (S3Client s3 = aws.newS3Client()) {
            s3.listObjectsV2Paginator(b -> b.bucket(aws.bucket()).prefix(UsageLayout.USAGE_PREFIX)).contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(aws.bucket()).key(o.key())));
        }
    }

    @Test
    void usage_shouldCountOnlyTheCallersJobs_byTier() {
        // given
        put(caller, record(today, "small", 10, 20, 1_800_000, false));
        put(caller, record(today, "small", 0, 0, 0, true));
        put(caller, record(today, "speech", 0, 0, 4_000, false));
        put(someoneElse, record(today, "small", 1_000, 1_000, 9_000_000, false));

        // when, then: small's cost is 1 GPU x 1.861 $/h x 0.5 h; speech's 1 x 0.805 x 4 s
        given().queryParam("start", today.toString()).queryParam("groupBy", "tier").get("/v1/usage")
                .then().statusCode(200)
                .body("object", equalTo("usage"))
                .body("start", equalTo(today + "T00:00:00Z"))
                .body("end", equalTo(today.plusDays(1) + "T00:00:00Z"))
                .body("total.jobs.total", equalTo(3)).body("total.jobs.succeeded", equalTo(3))
                .body("total.promptTokens", equalTo(10)).body("total.completionTokens", equalTo(20))
                .body("total.cacheHits", equalTo(1))
                .body("total.inferenceSeconds", equalTo(1804.0f))
                .body("total.estimatedCostUsd", equalTo(0.931394f))
                .body("groups.tier", contains("small", "speech"))
                .body("groups[0].jobs.total", equalTo(2))
                .body("groups[0].estimatedCostUsd", equalTo(0.9305f))
                .body("costBasis", org.hamcrest.Matchers.containsString("estimate"));
    }

    @Test
    void usage_shouldSummarizeASettledDayOnce_andAnswerFromTheSummaryAfterwards() {
        // given: two records of a day long settled
        LocalDate past = today.minusDays(5);
        put(caller, record(past, "small", 1, 2, 1_000, false));
        put(caller, record(past, "large", 3, 4, 2_000, false));

        // when
        given().queryParam("start", past.toString()).queryParam("groupBy", "day").get("/v1/usage")
                .then().statusCode(200).body("groups", hasSize(1)).body("groups[0].day", equalTo(past.toString()))
                .body("groups[0].jobs.total", equalTo(2));

        // then: the day's summary was written, and is what later questions read
        String summary = read(UsageLayout.summaryKey(caller, past));
        assertThat(JobJson.read(summary, DaySummary.class).rows()).hasSize(2);
        put(caller, record(past, "small", 100, 100, 1_000, false));
        given().queryParam("start", past.toString()).queryParam("end", today.toString()).get("/v1/usage")
                .then().statusCode(200).body("total.jobs.total", equalTo(2)).body("groups", nullValue());
    }

    @Test
    void usage_shouldAnswer400NamingEachBadParameter() {
        given().get("/v1/usage").then().statusCode(400).body("errors.field", contains("start"))
                .body("errors.code", contains("required"));
        given().queryParam("start", "2026-12-01").queryParam("groupBy", "week").get("/v1/usage")
                .then().statusCode(400).body("errors.field", contains("groupBy"))
                .body("errors.code", contains("invalid_value"));
        given().queryParam("start", "2026-12-02").queryParam("end", "2026-12-01").get("/v1/usage")
                .then().statusCode(400).body("errors.field", contains("end"))
                .body("errors.code", contains("out_of_range"));
        given().queryParam("start", "2026-01-01").queryParam("end", "2026-12-01").get("/v1/usage")
                .then().statusCode(400).body("errors.field", contains("end"))
                .body("errors[0].message", org.hamcrest.Matchers.containsString("at most 93 days"));
        given().queryParam("start", "last tuesday").get("/v1/usage")
                .then().statusCode(400).body("errors.field", contains("start"))
                .body("errors.code", contains("invalid_format"));
    }

    private static UsageRecord record(LocalDate day, String tier, long prompt, long completion, long ms,
                                      boolean cached) {
        return new UsageRecord(UUID.randomUUID().toString(), day, JobStatus.SUCCEEDED, tier, tier + "-model", prompt,
                completion, ms, cached);
    }

    private void put(Owner owner, UsageRecord record) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(UsageLayout.recordKey(owner, record)),
                    RequestBody.fromString(JobJson.write(record)));
        }
    }

    private String read(String key) {
        try (S3Client s3 = aws.newS3Client()) {
            return s3.getObjectAsBytes(b -> b.bucket(aws.bucket()).key(key)).asUtf8String();
        }
    }
}
