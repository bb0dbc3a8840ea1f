package io.gpupipe.scaling;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.AutoScalingStandInResource;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.CloudWatchStandInResource;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.EcsStandInResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The burst, end to end through the real function: 0 → 1 → 40 queued jobs → drained, with the small
 * tier's queue really in each state (ElasticMQ), ECS and GPU inputs from the stand-ins, one tick per step. Prints
 * the inputs → published DesiredTasks table and asserts each published value (small tier: 5 jobs per task, 70 %
 * GPU target, at most 10 tasks). Run alone: {@code ./mvnw -B -ntp -pl functions/scaling-metric verify
 * -Dtest=ScalingBurstTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = EcsStandInResource.class, initArgs = @ResourceArg(
        name = EcsStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.ecs-endpoint-override"))
@WithTestResource(value = CloudWatchStandInResource.class, initArgs = @ResourceArg(
        name = CloudWatchStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.cloudwatch-endpoint-override"))
@WithTestResource(value = AutoScalingStandInResource.class, initArgs = @ResourceArg(
        name = AutoScalingStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.autoscaling-endpoint-override"))
class ScalingBurstTest {
    @InjectLocalAws
    LocalAws aws;

    EcsStandIn ecs;

    CloudWatchStandIn cloudWatch;

    /** One step: what happens to the queue and the service, the GPU reading, and the value we expect. */
    record Step(String what, Consumer<QueueDriver> queue, int desired, int running, Double gpu, int expected) {
    }

    @Test
    void burst_shouldScaleFromZeroOutAndBackToZero_whenJobsArriveAndDrain() {
        List<Step> steps = List.of(
                new Step("idle", q -> { }, 0, 0, null, 0),
                new Step("first job arrives", q -> q.send(1), 0, 0, null, 1),
                new Step("cold start: task pending", q -> { }, 1, 0, null, 1),
                new Step("burst: 39 more queued", q -> q.send(39), 1, 0, null, 8),
                new Step("2 tasks up, 16 jobs each in flight", q -> q.receive(32), 8, 2, 96.0, 3),
                new Step("4 tasks up, 24 done, rest in flight", q -> { q.complete(24); q.receive(8); }, 3, 4, 60.0, 4),
                new Step("tail: 2 jobs left in flight", q -> q.complete(14), 4, 4, 20.0, 2),
                new Step("drained", q -> q.complete(2), 2, 2, 3.0, 0));

        List<String> table = new ArrayList<>();
        table.add(String.format("%-40s %7s %8s %7s %7s %9s %6s | %-12s %s", "step", "visible", "inFlight",
                "delayed", "running", "svcDesired", "gpu%", "DesiredTasks", "reason"));
        try (SqsClient sqs = aws.newSqsClient()) {
            QueueDriver small = new QueueDriver(sqs, aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE));
            small.purge();
            new QueueDriver(sqs, aws.queueUrl(LocalAws.ESCALATION_QUEUE)).purge();
            Instant tick = Instant.parse("2026-11-29T12:00:00Z");
            for (Step step : steps) {
                table.add(run(step, small, tick));
                tick = tick.plusSeconds(60);
            }
        }
        System.out.println("\nScaling burst, small tier (published by the scaling-metric function):\n"
                + String.join("\n", table) + "\n");
    }

    private String run(Step step, QueueDriver small, Instant tick) {
        // given
        ecs.reset();
        cloudWatch.reset();
        step.queue().accept(small);
        ecs.setService("gpupipe", "gpupipe-small", step.desired(), step.running());
        ecs.setService("gpupipe", "gpupipe-large", 0, 0);
        if (step.gpu() != null) {
            cloudWatch.setSeries("ECS/ContainerInsights", "TaskGPUUtilization",
                    Map.of("ClusterName", "gpupipe", "ServiceName", "gpupipe-small"),
                    List.of(new CloudWatchStandIn.Point(tick.minusSeconds(60), step.gpu())));
        }

        // when
        String event = sample("scheduled-tick.json")
                .replace("2026-11-29T12:00:00Z", tick.toString());
        JsonNode run = invoke(event);

        // then
        Map<String, Double> published = cloudWatch.puts().get(0).data().stream()
                .filter(d -> d.dimensions().equals(Map.of("Tier", "small")))
                .collect(Collectors.toMap(CloudWatchStandIn.Datum::name, CloudWatchStandIn.Datum::value));
        assertThat(published.get("DesiredTasks")).as(step.what()).isEqualTo(step.expected());
        return String.format("%-40s %7.0f %8.0f %7.0f %7.0f %9.0f %6s | %-12.0f %s", step.what(),
                published.get("QueueVisible"), published.get("QueueInFlight"), published.get("QueueDelayed"),
                published.get("RunningTasks"), published.get("ServiceDesiredTasks"),
                published.containsKey("GpuUtilization") ? String.format("%.0f", published.get("GpuUtilization"))
                        : "-", published.get("DesiredTasks"), run.at("/tiers/0/reason").asText());
    }
}
