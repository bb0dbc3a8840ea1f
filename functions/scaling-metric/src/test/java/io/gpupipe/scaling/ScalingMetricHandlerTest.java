package io.gpupipe.scaling;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.RecordingJsonLines;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.AutoScalingStandInResource;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.CloudWatchStandInResource;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.EcsStandInResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.model.TierCatalogue;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * Posts events/scheduled-tick.json through the mock Lambda event server; the function reads real SQS (ElasticMQ)
 * and the ECS and CloudWatch stand-ins, and the test asserts the exact PutMetricData the stand-in received.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = EcsStandInResource.class, initArgs = @ResourceArg(
        name = EcsStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.ecs-endpoint-override"))
@WithTestResource(value = CloudWatchStandInResource.class, initArgs = @ResourceArg(
        name = CloudWatchStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.cloudwatch-endpoint-override"))
@WithTestResource(value = AutoScalingStandInResource.class, initArgs = @ResourceArg(
        name = AutoScalingStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.autoscaling-endpoint-override"))
class ScalingMetricHandlerTest {
    static final Instant TICK = Instant.parse("2026-11-29T12:00:00Z");
    static final String GPU_NAMESPACE = "ECS/ContainerInsights";
    static final String GPU_METRIC = "TaskGPUUtilization";
    static final Map<String, String> SMALL_SERVICE = Map.of("ClusterName", "gpupipe", "ServiceName", "gpupipe-small");

    @InjectLocalAws
    LocalAws aws;

    EcsStandIn ecs;

    CloudWatchStandIn cloudWatch;

    @Inject
    RecordingJsonLines lines;

    SqsClient sqs;
    QueueDriver small;
    QueueDriver large;

    @BeforeEach
    void setUp() {
        ecs.reset();
        cloudWatch.reset();
        lines.clear();
        sqs = aws.newSqsClient();
        small = new QueueDriver(sqs, aws.queueUrl(LocalAws.DEFAULT_TEXT_QUEUE));
        large = new QueueDriver(sqs, aws.queueUrl(LocalAws.ESCALATION_QUEUE));
        small.purge();
        large.purge();
    }

    @AfterEach
    void tearDown() {
        sqs.close();
    }

    @Test
    void tick_shouldPublishDesiredCountAndInputsInOnePutMetricData_whenAllInputsRead() {
        // given: small has 4 visible, 3 in flight, 1 delayed, 2 of 2 tasks at 91 % GPU; large is idle
        small.send(7);
        small.receive(3);
        small.sendDelayed(1, 600);
        ecs.setService("gpupipe", "gpupipe-small", 2, 2);
        ecs.setService("gpupipe", "gpupipe-large", 0, 0);
        cloudWatch.setSeries(GPU_NAMESPACE, GPU_METRIC, SMALL_SERVICE, List.of(
                new CloudWatchStandIn.Point(Instant.parse("2026-11-29T11:54:00Z"), 10.0),
                new CloudWatchStandIn.Point(Instant.parse("2026-11-29T11:57:00Z"), 40.0),
                new CloudWatchStandIn.Point(Instant.parse("2026-11-29T11:59:00Z"), 91.0)));

        // when
        JsonNode run = invoke(sample("scheduled-tick.json"));

        // then: small = max(ceil(5/5)=1, ceil(2 x 91/70)=3, min(2, 3)=2) = 3; large idle = 0
        assertThat(run.get("at").asText()).isEqualTo("2026-11-29T12:00:00Z");
        assertThat(run.get("tiers")).extracting(t -> t.get("tier").asText(), t -> t.get("desiredTasks").asInt(),
                t -> t.get("reason").asText()).containsExactly(tuple("small", 3, "GPU"), tuple("large", 0, "IDLE"));
        assertThat(cloudWatch.puts()).hasSize(1);
        CloudWatchStandIn.PutCall put = cloudWatch.puts().get(0);
        assertThat(put.namespace()).isEqualTo("Gpupipe");
        assertThat(put.data()).containsExactly(
                datum("DesiredTasks", "small", 3, "Count"),
                datum("QueueVisible", "small", 4, "Count"),
                datum("QueueInFlight", "small", 3, "Count"),
                datum("QueueDelayed", "small", 1, "Count"),
                datum("RunningTasks", "small", 2, "Count"),
                datum("ServiceDesiredTasks", "small", 2, "Count"),
                datum("GpuUtilization", "small", 91, "Percent"),
                datum("DesiredTasks", "large", 0, "Count"),
                datum("QueueVisible", "large", 0, "Count"),
                datum("QueueInFlight", "large", 0, "Count"),
                datum("QueueDelayed", "large", 0, "Count"),
                datum("RunningTasks", "large", 0, "Count"),
                datum("ServiceDesiredTasks", "large", 0, "Count"));
    }

    @Test
    void tick_shouldQueryContainerInsightsAndEcs_withTheServiceDimensionsAndWindow() {
        // given
        ecs.setService("gpupipe", "gpupipe-small", 1, 1);
        ecs.setService("gpupipe", "gpupipe-large", 0, 0);
        ecs.setService("gpupipe", "gpupipe-speech", 0, 0);
        ecs.setService("gpupipe", "gpupipe-embed", 0, 0);

        // when
        invoke(sample("scheduled-tick.json"));

        // then
        assertThat(ecs.requests()).extracting(r -> r.toString()).containsExactly(
                "{\"cluster\":\"gpupipe\",\"services\":[\"gpupipe-small\"]}",
                "{\"cluster\":\"gpupipe\",\"services\":[\"gpupipe-large\"]}",
                "{\"cluster\":\"gpupipe\",\"services\":[\"gpupipe-speech\"]}",
                "{\"cluster\":\"gpupipe\",\"services\":[\"gpupipe-embed\"]}");
        JsonNode request = cloudWatch.getMetricDataRequests().get(0);
        JsonNode stat = request.at("/MetricDataQueries/0/MetricStat");
        assertThat(stat.at("/Metric/Namespace").asText()).isEqualTo(GPU_NAMESPACE);
        assertThat(stat.at("/Metric/MetricName").asText()).isEqualTo(GPU_METRIC);
        assertThat(stat.at("/Metric/Dimensions").toString()).isEqualTo("[{\"Name\":\"ClusterName\",\"Value\":"
                + "\"gpupipe\"},{\"Name\":\"ServiceName\",\"Value\":\"gpupipe-small\"}]");
        assertThat(stat.get("Period").asInt()).isEqualTo(60);
        assertThat(stat.get("Stat").asText()).isEqualTo("Average");
        assertThat(request.get("StartTime").asLong()).isEqualTo(TICK.minusSeconds(300).getEpochSecond());
        assertThat(request.get("EndTime").asLong()).isEqualTo(TICK.getEpochSecond());
    }

    @Test
    void tick_shouldLogOneStructuredLinePerTier() {
        // given
        small.send(1);
        ecs.setService("gpupipe", "gpupipe-small", 0, 0);
        ecs.setService("gpupipe", "gpupipe-large", 0, 0);
        ecs.setService("gpupipe", "gpupipe-speech", 0, 0);
        ecs.setService("gpupipe", "gpupipe-embed", 0, 0);

        // when
        invoke(sample("scheduled-tick.json"));

        // then: scale from zero on the first job, no GPU signal (no task runs); one line per catalogue tier
        assertThat(lines.lines()).hasSize(TierCatalogue.bundled().tiers().size());
        JsonNode smallLine = JobJson.read(lines.lines().get(0), JsonNode.class);
        assertThat(smallLine.get("event").asText()).isEqualTo("scaling-metric");
        assertThat(smallLine.get("tier").asText()).isEqualTo("small");
        assertThat(smallLine.get("desiredTasks").asInt()).isEqualTo(1);
        assertThat(smallLine.get("visible").asInt()).isEqualTo(1);
        assertThat(smallLine.get("gpuUtilization").isNull()).isTrue();
        assertThat(smallLine.get("maxTasks").asInt()).isEqualTo(10);
        assertThat(JobJson.read(lines.lines().get(1), JsonNode.class).get("tier").asText()).isEqualTo("large");
    }

    @Test
    void tick_shouldPublishHealthyTierAndReportTheOther_whenOneServiceIsMissing() {
        // given: the large service does not exist
        small.send(12);
        ecs.setService("gpupipe", "gpupipe-small", 1, 1);

        // when
        JsonNode run = invoke(sample("scheduled-tick.json"));

        // then
        assertThat(run.at("/failures/large").asText()).contains("MISSING");
        assertThat(cloudWatch.puts()).singleElement().satisfies(put -> {
            assertThat(put.data()).allSatisfy(d -> assertThat(d.dimensions()).isEqualTo(Map.of("Tier", "small")));
            assertThat(put.data().get(0)).isEqualTo(datum("DesiredTasks", "small", 3, "Count"));
        });
        assertThat(lines.lines()).anySatisfy(l -> assertThat(l).contains("scaling-metric-failed")
                .contains("\"tier\":\"large\""));
    }

    @Test
    void tick_shouldPublishWithoutGpuSignal_whenGetMetricDataFails() {
        // given
        small.send(6);
        small.receive(2);
        ecs.setService("gpupipe", "gpupipe-small", 1, 1);
        ecs.setService("gpupipe", "gpupipe-large", 0, 0);
        cloudWatch.failGetMetricData(true);

        // when
        JsonNode run = invoke(sample("scheduled-tick.json"));

        // then: backlog ceil(4/5)=1, in-flight floor min(1,2)=1 -> 1; no GpuUtilization datum
        assertThat(run.at("/tiers/0/desiredTasks").asInt()).isEqualTo(1);
        assertThat(run.at("/tiers/0/gpuSignal").asBoolean()).isFalse();
        assertThat(cloudWatch.puts().get(0).data()).extracting(CloudWatchStandIn.Datum::name)
                .doesNotContain("GpuUtilization");
        assertThat(lines.lines().get(0)).contains("\"level\":\"WARN\"").contains("gpuError");
    }

    @Test
    void tick_shouldFailInvocation_whenNoTierCanBeRead() {
        // given: no ECS cluster at all

        // when, then
        String body = given().contentType("application/json").body(sample("scheduled-tick.json"))
                .when().post()
                .then().statusCode(500)
                .extract().asString();
        assertThat(body).contains("ScalingPublishException");
        assertThat(cloudWatch.puts()).isEmpty();
    }

    static CloudWatchStandIn.Datum datum(String name, String tier, double value, String unit) {
        return new CloudWatchStandIn.Datum(name, Map.of("Tier", tier), value, unit, TICK);
    }
}
