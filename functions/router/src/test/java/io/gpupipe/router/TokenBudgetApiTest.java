package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import io.gpupipe.model.usage.UsageLayout;
import io.gpupipe.model.usage.UsageRecord;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** A monthly token budget of 100 (re-read on every submission here): job and batch submissions over it answer 429. */
@QuarkusTest
@TestProfile(TokenBudgetApiTest.HundredTokens.class)
@WithTestResource(LocalAwsTestResource.class)
class TokenBudgetApiTest extends LocalAwsProbeSetup {
    /** {@code GPUPIPE_ROUTER_USAGE_MONTHLY_TOKEN_BUDGET=100}, counted afresh for every submission. */
    public static class HundredTokens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpupipe.router.usage.monthly-token-budget", "100",
                    "gpupipe.router.usage.budget-refresh", "0s");
        }
    }

    @BeforeEach
    void forgetUsage() {
        try (S3Client s3 = aws.newS3Client()) {
            s3.listObjectsV2Paginator(b -> b.bucket(aws.bucket()).prefix(UsageLayout.USAGE_PREFIX)).contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(aws.bucket()).key(o.key())));
        }
    }

    @Test
    void submit_shouldBeRefusedWith429_onceTheMonthsTokensReachTheBudget() {
        // given: 99 tokens of finished jobs this month
        recordTokens(40, 59);
        given().contentType("application/json").body("{\"prompt\":\"Hello\"}").post("/v1/jobs")
                .then().statusCode(202);

        // when: a job brings the month to 100
        recordTokens(1, 0);
        Response job = given().contentType("application/json").body("{\"prompt\":\"Hello\"}").post("/v1/jobs");
        Response batch = given().contentType("application/json").body("{\"input_file_id\":\"file-x\","
                + "\"endpoint\":\"/v1/completions\",\"completion_window\":\"24h\"}").post("/v1/batches");

        // then
        for (Response refused : new Response[] {job, batch}) {
            refused.then().statusCode(429).body("errors[0].field", equalTo("owner"))
                    .body("errors[0].code", equalTo("budget_exceeded"))
                    .body("errors[0].message", containsString("monthly budget of 100 tokens"));
            assertThat(Long.parseLong(refused.header("Retry-After"))).isPositive();
        }
        given().queryParam("start", LocalDate.now(ZoneOffset.UTC).toString()).get("/v1/usage")
                .then().statusCode(200).body("total.promptTokens", equalTo(41))
                .body("total.completionTokens", equalTo(59));
    }

    private void recordTokens(long prompt, long completion) {
        UsageRecord record = new UsageRecord(UUID.randomUUID().toString(), LocalDate.now(ZoneOffset.UTC),
                JobStatus.SUCCEEDED, "small", "m", prompt, completion, 100, false);
        try (S3Client s3 = aws.newS3Client()) {
            Owner anonymous = aws.ownerIds().of(CallerIdentity.ANONYMOUS);
            s3.putObject(b -> b.bucket(aws.bucket()).key(UsageLayout.recordKey(anonymous,
                    record)), RequestBody.fromString(JobJson.write(record)));
        }
    }
}
