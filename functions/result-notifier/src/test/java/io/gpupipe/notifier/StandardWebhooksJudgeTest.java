package io.gpupipe.notifier;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.testsupport.CallbackReceiver;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real callbacks, sent by the notifier to a receiver on loopback, verified by the reference Standard Webhooks library
 * (npm {@code standardwebhooks}, run with node) with the secret in its {@code whsec_} form: every try of a delivery
 * that needed three must verify, and the library must refuse the same delivery with its body changed and a delivery
 * signed ten minutes ago.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = SnsStandInResource.class, initArgs = {
        @ResourceArg(name = "gpupipe.notifier.success-topic-arn", value = ResultNotifierHandlerTest.SUCCESS_TOPIC),
        @ResourceArg(name = "gpupipe.notifier.error-topic-arn", value = ResultNotifierHandlerTest.ERROR_TOPIC)})
class StandardWebhooksJudgeTest {
    static CallbackReceiver receiver;

    @InjectLocalAws
    LocalAws aws;

    @Inject
    NotifierConfig config;

    @Inject
    CallbackSecret secret;

    @BeforeAll
    static void startReceiver() throws IOException {
        receiver = new CallbackReceiver();
    }

    @AfterAll
    static void stopReceiver() {
        receiver.close();
    }

    @Test
    void referenceLibrary_shouldVerifyEveryTry_andRefuseATamperedBodyAndAnOldTimestamp() {
        StandardWebhooksJudge judge = StandardWebhooksJudge.installed();
        // given: a job whose receiver fails twice, so one event goes out three times (from the callback queue)
        ResultNotifierHandlerTest.forgetDeliveries(aws);
        receiver.reset();
        receiver.script("/hooks/judged", 503, 503);
        ResultNotifierHandlerTest.putResult(aws, ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.A,
                receiver.url("/hooks/judged")));
        invoke(sample("s3-result-succeeded.json"));
        for (int i = 0; i < 3; i++) {
            ResultNotifierHandlerTest.deliverQueued(aws, ResultNotifierHandlerTest.A);
        }
        List<CallbackReceiver.Received> tries = receiver.received("/hooks/judged");
        assertThat(tries).hasSize(3);
        // and the same event signed by a notifier whose clock is ten minutes behind (a replay of an old capture)
        CallbackSender late = new CallbackSender(config, secret, Clock.offset(Clock.systemUTC(),
                Duration.ofMinutes(-10)));
        assertThat(late.send(receiver.url("/hooks/old"), tries.get(0).webhookId(), tries.get(0).body()).status())
                .isEqualTo(CallbackDelivery.Status.DELIVERED);
        CallbackReceiver.Received old = receiver.received("/hooks/old").get(0);
        // and the first try with one byte of its body changed
        CallbackReceiver.Received tampered = new CallbackReceiver.Received("/hooks/judged",
                tries.get(0).body().replace("succeeded", "succeedeD"), tries.get(0).headers());
        List<CallbackReceiver.Received> deliveries = new ArrayList<>(tries);
        deliveries.add(tampered);
        deliveries.add(old);

        // when: the reference library verifies them with the secret as a receiver is given it (whsec_)
        List<StandardWebhooksJudge.Verdict> verdicts = judge.verify(
                CallbackKey.of(ResultNotifierHandlerTest.SECRET).whsec(), deliveries,
                List.of("try 1", "try 2", "try 3", "tampered body", "signed 10 minutes ago"));

        // then
        assertThat(verdicts).extracting(StandardWebhooksJudge.Verdict::verified)
                .containsExactly(true, true, true, false, false);
        assertThat(verdicts.get(3).error()).isEqualTo("No matching signature found");
        assertThat(verdicts.get(4).error()).isEqualTo("Message timestamp too old");
        // one event, one id: the receiver's idempotency key
        assertThat(tries).extracting(CallbackReceiver.Received::webhookId).containsOnly(
                CallbackSignature.messageId(aws.bucket(), ResultNotifierHandlerTest.A));
    }

    @Test
    void referenceLibrary_shouldRefuseEveryTry_whenGivenAnotherSecret() {
        StandardWebhooksJudge judge = StandardWebhooksJudge.installed();
        ResultNotifierHandlerTest.forgetDeliveries(aws);
        receiver.reset();
        ResultNotifierHandlerTest.putResult(aws, ResultNotifierHandlerTest.succeeded(ResultNotifierHandlerTest.A,
                receiver.url("/hooks/other")));
        invoke(sample("s3-result-succeeded.json"));
        ResultNotifierHandlerTest.deliverQueued(aws, ResultNotifierHandlerTest.A);

        List<StandardWebhooksJudge.Verdict> verdicts = judge.verify(CallbackKey.of("another-secret-of-24-bytes")
                .whsec(), receiver.received("/hooks/other"), List.of("delivered"));

        assertThat(verdicts).singleElement().satisfies(v -> {
            assertThat(v.verified()).isFalse();
            assertThat(v.error()).isEqualTo("No matching signature found");
        });
    }
}
