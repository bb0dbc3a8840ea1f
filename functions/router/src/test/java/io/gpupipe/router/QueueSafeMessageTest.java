package io.gpupipe.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.model.job.JobMessage;
import io.gpupipe.model.job.JobRequestParser;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Any request that passes validation is accepted and reaches the worker intact, whatever its characters and size:
 * text SQS cannot carry travels escaped, bodies beyond the queue's size limit travel as a claim check.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
class QueueSafeMessageTest extends LocalAwsProbeSetup {
    static Stream<Arguments> prompts() {
        String emoji = "\uD83D\uDE00";
        return Stream.of(
                Arguments.of("U+FFFF", "before \uFFFF after"),
                Arguments.of("U+FFFE", "before \uFFFE after"),
                Arguments.of("lone high surrogate", "before \uD800 after"),
                Arguments.of("lone low surrogate", "before \uDC00 after"),
                Arguments.of("reversed surrogate pair", "x\uDE00\uD83Dx"),
                Arguments.of("50,000 emoji (100,000 chars, 200 kB UTF-8)", emoji.repeat(50_000)),
                Arguments.of("100,000 three-byte chars (300 kB: beyond 256 KiB)", "\u6F22".repeat(100_000)),
                Arguments.of("60,000 U+FFFF (360 kB once escaped)", "\uFFFF".repeat(60_000)),
                Arguments.of("mixed planes", "a\u0000b\u007F\u0085\uFDD0\uFFFD\uD800\uDC00\uDBFF\uDFFF\uE000"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("prompts")
    void submit_shouldAcceptAndDeliverIntact_whenPromptIsValid(String what, String prompt) {
        // given: the request body as a client's JSON library writes it (\\u escapes where UTF-8 cannot carry it)
        String id = UUID.randomUUID().toString();
        String body = JobMessage.queueSafe(JobJson.write(Map.of("requestId", id, "prompt", prompt)));

        // when
        given().contentType("application/json; charset=utf-8").body(body).post("/v1/jobs")
                .then().statusCode(202);

        // then: one message, within SQS's rules, and the worker's parser reads the very same prompt
        List<Message> messages = new ArrayList<>(probe.drain(LocalAws.DEFAULT_TEXT_QUEUE));
        messages.addAll(probe.drain(LocalAws.ESCALATION_QUEUE));
        assertThat(messages).hasSize(1);
        assertThat(JobMessage.isQueueSafe(messages.get(0).body())).isTrue();
        JobRequestParser.Outcome parsed = new JobRequestParser().parse(probe.jobBody(messages.get(0)),
                JobRequestParser.Source.QUEUE);
        assertThat(parsed).isInstanceOf(JobRequestParser.Outcome.Valid.class);
        InferenceJob job = ((JobRequestParser.Outcome.Valid) parsed).job();
        assertThat(job.visibleRequestId()).isEqualTo(id);
        assertThat(job.prompt()).isEqualTo(prompt);
    }

    @Test
    void elasticMq_shouldRefuseWhatSqsRefuses_soThatTheseTestsProveSomething() {
        // SQS accepts only #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF, bodies up to 1 MiB
        String url = aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE);
        for (String body : List.of("a\uFFFFb", "a\uFFFEb", "a\u0001b")) {
            assertThatThrownBy(() -> probe.sqs.sendMessage(b -> b.queueUrl(url).messageBody(body)))
                    .isInstanceOf(SqsException.class);
        }
        assertThatThrownBy(() -> probe.sqs.sendMessage(b -> b.queueUrl(url).messageBody("x".repeat(1_048_577))))
                .isInstanceOf(SqsException.class);
    }
}
