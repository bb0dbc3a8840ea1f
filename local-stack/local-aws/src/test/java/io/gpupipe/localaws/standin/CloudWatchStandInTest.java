package io.gpupipe.localaws.standin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localaws.LocalAws;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.CloudWatchException;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.InvalidParameterValueException;
import software.amazon.awssdk.services.cloudwatch.model.MetricDatum;
import software.amazon.awssdk.services.cloudwatch.model.MissingRequiredParameterException;
import software.amazon.awssdk.services.cloudwatch.model.PutMetricDataRequest;

/**
 * {@link CloudWatchStandIn} driven by the real CloudWatchClient of the SDK version the project uses (the BOM's): if an
 * SDK upgrade changes the wire protocol (today Smithy RPC v2 CBOR) or the error mapping, these calls fail.
 */
class CloudWatchStandInTest {
    private static CloudWatchStandIn standIn;
    private static CloudWatchClient cloudWatch;

    @BeforeAll
    static void start() throws Exception {
        standIn = new CloudWatchStandIn();
        cloudWatch = CloudWatchClient.builder().endpointOverride(standIn.endpoint()).region(Region.of(LocalAws.REGION))
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        cloudWatch.close();
        standIn.close();
    }

    @BeforeEach
    void reset() {
        standIn.reset();
    }

    @Test
    void putMetricData_shouldRecordEveryDatum_whenTheRequestIsValid() {
        // when
        cloudWatch.putMetricData(b -> b.namespace("Gpupipe").metricData(
                d -> d.metricName("DesiredTasks").value(3.0).unit("Count").dimensions(x -> x.name("Tier")
                        .value("small")).timestamp(Instant.parse("2026-12-01T06:00:00Z")),
                d -> d.metricName("Backlog").value(-Math.scalb(1.0, 360))));

        // then
        assertThat(standIn.puts()).singleElement().satisfies(call -> {
            assertThat(call.namespace()).isEqualTo("Gpupipe");
            assertThat(call.data()).extracting(CloudWatchStandIn.Datum::name)
                    .containsExactly("DesiredTasks", "Backlog");
            assertThat(call.data().get(0).dimensions()).isEqualTo(Map.of("Tier", "small"));
            assertThat(call.data().get(0).timestamp()).isEqualTo(Instant.parse("2026-12-01T06:00:00Z"));
        });
    }

    @Test
    void putMetricData_shouldAnswerInvalidParameterValue_whenTheNamespaceIsReservedForAws() {
        assertRefused(b -> b.namespace("AWS/ECS").metricData(d -> d.metricName("X").value(1.0)),
                InvalidParameterValueException.class, "InvalidParameterValue", "AWS/ECS");
    }

    @Test
    void putMetricData_shouldAnswerInvalidParameterValue_whenAValueIsNaNInfiniteOrBeyond2To360() {
        for (double value : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Math.scalb(1.0, 361)}) {
            assertRefused(b -> b.namespace("Gpupipe").metricData(d -> d.metricName("X").value(value)),
                    InvalidParameterValueException.class, "InvalidParameterValue", "MetricData.member.1.Value");
        }
    }

    @Test
    void putMetricData_shouldAnswerInvalidParameterValue_whenTooManyMetricsOrDimensions() {
        List<MetricDatum> tooMany = IntStream.range(0, PutMetricDataRules.MAX_METRICS + 1)
                .mapToObj(i -> MetricDatum.builder().metricName("M" + i).value(1.0).build()).toList();
        assertRefused(b -> b.namespace("Gpupipe").metricData(tooMany), InvalidParameterValueException.class,
                "InvalidParameterValue", "MetricData");
        List<Dimension> dimensions = IntStream.range(0, PutMetricDataRules.MAX_DIMENSIONS + 1)
                .mapToObj(i -> Dimension.builder().name("D" + i).value("v").build()).toList();
        assertRefused(b -> b.namespace("Gpupipe").metricData(d -> d.metricName("X").value(1.0)
                .dimensions(dimensions)), InvalidParameterValueException.class, "InvalidParameterValue",
                "MetricData.member.1.Dimensions");
    }

    @Test
    void putMetricData_shouldAnswerMissingParameter_whenTheNamespaceIsAbsent() {
        assertRefused(b -> b.metricData(d -> d.metricName("X").value(1.0)),
                MissingRequiredParameterException.class, "MissingParameter", "Namespace");
    }

    private static void assertRefused(Consumer<PutMetricDataRequest.Builder> request,
                                      Class<? extends CloudWatchException> type, String code, String mentioned) {
        assertThatThrownBy(() -> cloudWatch.putMetricData(request)).isInstanceOf(type)
                .satisfies(e -> {
                    CloudWatchException error = (CloudWatchException) e;
                    assertThat(error.statusCode()).isEqualTo(400);
                    assertThat(error.awsErrorDetails().errorCode()).isEqualTo(code);
                    assertThat(error.awsErrorDetails().errorMessage()).contains(mentioned);
                });
        assertThat(standIn.puts()).isEmpty();
    }
}
