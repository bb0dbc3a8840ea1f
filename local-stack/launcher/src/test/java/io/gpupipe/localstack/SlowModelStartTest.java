package io.gpupipe.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.LambdaStandIn;
import io.gpupipe.localstack.events.AwsEvents;
import io.gpupipe.localstack.internal.Backend;
import io.gpupipe.localstack.internal.ComponentEnvironment;
import io.gpupipe.localstack.internal.Console;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.Tier;
import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.worker.standin.VllmStandIn;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The whole stack with a model server that starts slowly (the vLLM stand-in refusing connections while it loads,
 * as vLLM does): a job submitted meanwhile wakes its tier through the Lambda stand-in, the scaling function counts
 * the starting task (one task wanted and running, neither a second one nor zero), the worker takes nothing before the
 * model answers, and serves the waiting job once it does.
 */
class SlowModelStartTest {
    private static final Tier SMALL = Tier.of("small");
    private static final Duration LIMIT = Duration.ofMinutes(3);

    @TempDir
    Path cache;

    @Test
    void stack_shouldWakeTheTierAndHoldTheJob_whileTheModelLoads_andServeItOnceTheModelAnswers() throws Exception {
        RequiredPackages.assertBuilt();
        try (VllmStandIn model = VllmStandIn.start(VllmStandIn.Settings.defaults().withLoadDelay(Duration.ofHours(1)));
             LocalStack stack = StackAssembler.start(options(model.url()), new Console(new PrintStream(System.out, true,
                     StandardCharsets.UTF_8)), StackOverrides.none().withoutAwaitingWorkers());
             SqsClient sqs = stack.aws().newSqsClient()) {
            ApiClient api = new ApiClient(stack.apiUri());
            LambdaStandIn lambda = stack.standIns().lambda().orElseThrow();
            CloudWatchStandIn cloudWatch = stack.standIns().cloudWatch().orElseThrow();

            // when: a job arrives while the model loads
            JsonNode accepted = api.submit("{\"prompt\": \"Once upon a time\", \"maxTokens\": 8}").body();
            String id = accepted.path("requestId").asText();

            // then: the router woke the small tier through the Lambda stand-in
            LambdaStandIn.Invocation wake = await(() -> lambda.invocations().stream().findFirst(), "the wake");
            assertThat(wake.function()).isEqualTo(ComponentEnvironment.SCALING_FUNCTION);
            assertThat(JobJson.read(wake.payload(), JsonNode.class).at("/detail/tier").asText()).isEqualTo("small");
            assertThat(JobJson.read(wake.payload(), JsonNode.class).path("source").asText())
                    .isEqualTo(TierWake.SOURCE);

            // and a scaling run counts the starting task: one wanted, one running (not ready), none added or removed
            int putsBefore = cloudWatch.puts().size();
            stack.functions().scalingMetric().orElseThrow().invoke(JobJson.write(AwsEvents.scheduled("test", Instant.now()))
                    .getBytes(StandardCharsets.UTF_8));
            CloudWatchStandIn.PutCall put = await(() -> cloudWatch.puts().stream().skip(putsBefore).findFirst(),
                    "a PutMetricData of the scaling run");
            assertThat(value(put, "DesiredTasks")).isEqualTo(1);
            assertThat(value(put, "RunningTasks")).isEqualTo(1);
            assertThat(value(put, "QueueVisible")).isEqualTo(1);

            // and the worker, not ready, has taken nothing
            assertThat(model.loading()).isTrue();
            Map<QueueAttributeName, String> queue = sqs.getQueueAttributes(b -> b.queueUrl(stack.aws()
                    .queueUrl(SMALL)).attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
            assertThat(queue).containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "1")
                    .containsEntry(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, "0");

            // when: the model answers
            model.finishLoading();

            // then: the waiting job is served
            assertThat(api.awaitTerminal(id, LIMIT).path("status").asText()).isEqualTo("succeeded");
        }
    }

    private LaunchOptions options(URI modelServer) {
        return new LaunchOptions(0, 0, 0, null, null, false, LaunchOptions.DEFAULT_TEXT_MODEL_URL,
                LaunchOptions.DEFAULT_TEXT_MODEL_SHA256, cache, Backend.OPENAI, modelServer,
                new LinkedHashSet<>(Set.of(SMALL)), Duration.ofHours(1), TestPaths.repo());
    }

    private static double value(CloudWatchStandIn.PutCall put, String metric) {
        return put.data().stream().filter(d -> d.name().equals(metric) && "small".equals(d.dimensions().get("Tier")))
                .findFirst().orElseThrow(() -> new AssertionError(metric + " not in " + put.describe())).value();
    }

    private static <T> T await(Supplier<Optional<T>> probe, String what) {
        return Awaitility.await(what).atMost(LIMIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(probe::get, Optional::isPresent).orElseThrow();
    }
}
