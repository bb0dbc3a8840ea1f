package io.gpupipe.localstack.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localstack.internal.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.StandardUnit;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.DescribeServicesResponse;

/**
 * The local stack's ECS and CloudWatch stand-ins (shared from local-aws) driven by the real SDK 2.57.8 clients (JSON
 * 1.1 and RPC v2 CBOR).
 */
class ControlPlaneStandInTest {
    private static final ByteArrayOutputStream OUTPUT = new ByteArrayOutputStream();
    private static EcsStandIn ecsStandIn;
    private static CloudWatchStandIn cloudWatchStandIn;
    private static CloudWatchClient cloudWatch;
    private static EcsClient ecs;

    @BeforeAll
    static void start() throws Exception {
        ecsStandIn = LocalStandIns.ecs(service -> service.endsWith("-small") ? 1 : 0);
        cloudWatchStandIn = LocalStandIns.cloudWatch(new Console(new PrintStream(OUTPUT, true,
                StandardCharsets.UTF_8)));
        cloudWatch = CloudWatchClient.builder().endpointOverride(cloudWatchStandIn.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
        ecs = EcsClient.builder().endpointOverride(ecsStandIn.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        cloudWatch.close();
        ecs.close();
        ecsStandIn.close();
        cloudWatchStandIn.close();
    }

    @Test
    void describeServices_shouldReportOneRunningTask_whenTheTiersWorkerRuns() {
        // when
        DescribeServicesResponse response = ecs.describeServices(b -> b.cluster("gpupipe-local")
                .services("gpupipe-local-small", "gpupipe-local-large"));
        // then
        assertThat(response.services()).hasSize(2);
        assertThat(response.services().get(0).serviceName()).isEqualTo("gpupipe-local-small");
        assertThat(response.services().get(0).runningCount()).isEqualTo(1);
        assertThat(response.services().get(0).desiredCount()).isEqualTo(1);
        assertThat(response.services().get(1).runningCount()).isZero();
        assertThat(response.failures()).isEmpty();
    }

    @Test
    void putMetricData_shouldRecordAndPrintEachDatum_whenTheSdkPublishes() {
        // when
        cloudWatch.putMetricData(b -> b.namespace("gpupipe").metricData(
                d -> d.metricName("DesiredTasks").value(3.0).unit(StandardUnit.COUNT)
                        .dimensions(x -> x.name("Tier").value("small")).timestamp(Instant.now()),
                d -> d.metricName("Backlog").value(12.5).dimensions(x -> x.name("Tier").value("large"))));
        // then
        assertThat(cloudWatchStandIn.puts()).extracting(CloudWatchStandIn.PutCall::describe)
                .contains("PutMetricData gpupipe: DesiredTasks{Tier=small} = 3 Count, Backlog{Tier=large} = 12.5");
        assertThat(OUTPUT.toString(StandardCharsets.UTF_8))
                .contains("[cloudwatch] PutMetricData gpupipe: DesiredTasks{Tier=small} = 3 Count, "
                        + "Backlog{Tier=large} = 12.5");
    }

    @Test
    void getMetricData_shouldAnswerNoDatapoints_whenThereIsNoGpu() {
        // when
        GetMetricDataResponse response = cloudWatch.getMetricData(b -> b.startTime(Instant.now().minusSeconds(300))
                .endTime(Instant.now()).metricDataQueries(q -> q.id("gpu").metricStat(s -> s.period(60).stat("Average")
                        .metric(m -> m.namespace("ECS/ContainerInsights").metricName("TaskGPUUtilization")))));
        // then
        assertThat(response.metricDataResults()).hasSize(1);
        assertThat(response.metricDataResults().get(0).id()).isEqualTo("gpu");
        assertThat(response.metricDataResults().get(0).values()).isEmpty();
    }
}
