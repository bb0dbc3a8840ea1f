package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.InjectSnsStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Secrets Manager failing on the first signed callback of a fresh container (its own profile, so no other test has
 * cached the key yet): the record must fail before anything is published, and Lambda's retry must then publish once.
 */
@QuarkusTest
@TestProfile(CallbackSecretOutageTest.FreshContainer.class)
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
@WithTestResource(SecretsManagerStandInResource.class)
class CallbackSecretOutageTest {
    /** Only here to start this class in a container of its own. */
    public static class FreshContainer implements QuarkusTestProfile {
    }

    @InjectLocalAws
    LocalAws aws;

    @InjectSnsStandIn
    SnsStandIn sns;

    SecretsManagerStandIn secrets;

    @Test
    void notify_shouldPublishNothingThenOnce_whenSecretsManagerFailsOnTheFirstAttempt() throws IOException {
        ResultNotifierHandlerTest.forgetDeliveries(aws);
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            // given: a result with a callback, and Secrets Manager failing every try the SDK makes
            putResult(ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.A, receiver.url("/hooks/ok")));
            secrets.failNext(10);

            // when: the invocation fails (the only record failed retryably)
            given().contentType("application/json").body(sample("s3-result-succeeded.json"))
                    .when().post().then().statusCode(500);

            // then: nothing went out
            assertThat(sns.published()).isEmpty();
            assertThat(receiver.received()).isEmpty();

            // when: Lambda retries the same event once Secrets Manager is back
            secrets.failNext(0);
            invoke(sample("s3-result-succeeded.json"));
            ResultNotifierHandlerTest.deliverQueued(aws, ResultNotifierHandlerTest.A);

            // then: exactly one SNS message and one callback
            assertThat(sns.published()).hasSize(1);
            assertThat(receiver.received()).hasSize(1);
        }
    }

    private void putResult(JobResult result) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId()))
                            .contentType("application/json"),
                    RequestBody.fromString(JobJson.write(result), StandardCharsets.UTF_8));
        }
    }
}
