package io.gpupipe.localstack.sam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The local stack's function wiring is read from sam-template.yaml itself. Before, LocalStack copied it by hand, and
 * the copy had drifted: the callback-retry queue was polled 10 messages at a time where the template says 5.
 */
class SamTemplateTest {
    private static final SamTemplate TEMPLATE = SamTemplate.read(Path.of("..", ".."));

    @Test
    void notifier_shouldGetFiveCallbackRedeliveriesAtATime_andTheTwoS3Filters() {
        SamTemplate.Function notifier = TEMPLATE.function("result-notifier");

        assertThat(notifier.sqsSources()).containsExactly(new SamTemplate.SqsSource("CallbackRetryQueue", 5));
        assertThat(notifier.s3Filters()).containsExactlyInAnyOrder(new SamTemplate.S3Filter("results/", ".json"),
                new SamTemplate.S3Filter("batches/", "/final.json"));
        assertThat(notifier.memoryMiB()).isEqualTo(768);
        assertThat(notifier.timeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void asyncRetries_shouldBeTheTemplatesMaximumRetryAttempts_orLambdasDefault() {
        assertThat(TEMPLATE.function("result-notifier").asyncRetries()).isEqualTo(2);
        assertThat(TEMPLATE.function("scaling-metric").asyncRetries()).as("its EventInvokeConfig says 0").isZero();
        assertThat(SamTemplate.parse("""
                Resources:
                  Fn:
                    Type: AWS::Serverless::Function
                    Properties:
                      CodeUri: functions/x/target/function.zip
                      MemorySize: 256
                      Timeout: 10
                """).function("x").asyncRetries()).isEqualTo(SamTemplate.DEFAULT_ASYNC_RETRIES);
    }

    @Test
    void everyFunction_shouldHaveItsJvmMemoryTimeoutAndQueues_asTheTemplateSays() {
        assertThat(TEMPLATE.function("router")).extracting(SamTemplate.Function::memoryMiB,
                SamTemplate.Function::timeout).containsExactly(1024, Duration.ofSeconds(15));
        assertThat(TEMPLATE.function("dead-letter").sqsSources())
                .containsExactly(new SamTemplate.SqsSource("JobDeadLetterQueue", 10));
        assertThat(TEMPLATE.function("batch").sqsSources()).containsExactly(new SamTemplate.SqsSource("BatchQueue", 1));
        for (String module : new String[] {"router", "result-notifier", "scaling-metric", "dead-letter", "batch"}) {
            TEMPLATE.function(module).sqsSources().forEach(s -> assertThat(LocalQueues.of(s.queue())).isNotBlank());
        }
    }
}
