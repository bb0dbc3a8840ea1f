package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.JobLayout;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The notifier configured as in AWS ({@code callback-secret-arn}, no plain key): the signing key comes from the
 * Secrets Manager stand-in over the real wire protocol, once per container.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
@WithTestResource(SecretsManagerStandInResource.class)
class CallbackSecretArnTest {
    @InjectLocalAws
    LocalAws aws;

    SecretsManagerStandIn secrets;

    @Test
    void notify_shouldSignCallbacksWithSecretFetchedOnceByArn_whenSecretArnConfigured() throws IOException {
        // given
        ResultNotifierHandlerTest.forgetDeliveries(aws);
        try (CallbackReceiver receiver = new CallbackReceiver()) {
            putResult(ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.A, receiver.url("/hooks/one")));
            putResult(ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.I, receiver.url("/hooks/two")));
            putResult(ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.J, receiver.url("/hooks/two")));

            // when: two invocations, three signed callbacks
            JsonNode first = invoke(
                    sample("s3-result-succeeded.json"));
            JsonNode second = invoke(
                    sample("s3-results-pair.json"));

            JsonNode queued = ResultNotifierHandlerTest.deliverQueued(aws, ResultNotifierHandlerTest.A,
                    ResultNotifierHandlerTest.I, ResultNotifierHandlerTest.J);

            // then: every callback, handed to the callback queue and delivered from it, is signed with the fetched
            // key, not the plain test key
            assertThat(first.at("/items/0/callback").asText()).isEqualTo("QUEUED");
            assertThat(second.get("items")).extracting(i -> i.get("callback").asText())
                    .containsExactly("QUEUED", "QUEUED");
            assertThat(queued.get("items")).extracting(i -> i.get("callback").asText())
                    .containsExactly("DELIVERED", "DELIVERED", "DELIVERED");
            List<CallbackReceiver.Received> calls = receiver.received();
            assertThat(calls).hasSize(3).allSatisfy(call -> {
                assertThat(verify(SecretsManagerStandInResource.SECRET_VALUE, call)).isTrue();
                assertThat(verify(ResultNotifierHandlerTest.SECRET, call)).isFalse();
            });
        }
        // and the secret was read exactly once, by ARN, with GetSecretValue
        assertThat(secrets.requests()).singleElement().satisfies(request -> {
            assertThat(request.target()).isEqualTo("secretsmanager.GetSecretValue");
            assertThat(request.body().get("SecretId").asText()).isEqualTo(SecretsManagerStandInResource.SECRET_ARN);
        });
    }

    private static boolean verify(String key, CallbackReceiver.Received call) {
        return call.verifiedBy(key);
    }

    private void putResult(JobResult result) {
        try (S3Client s3 = aws.newS3Client()) {
            s3.putObject(b -> b.bucket(aws.bucket()).key(JobLayout.resultKey(result.requestId()))
                            .contentType("application/json"),
                    RequestBody.fromString(JobJson.write(result), StandardCharsets.UTF_8));
        }
    }
}
