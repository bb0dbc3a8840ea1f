package io.gpupipe.repair;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.RecordingJsonLines;
import io.gpupipe.localaws.standin.InjectSnsStandIn;
import io.gpupipe.localaws.standin.SnsStandIn;
import io.gpupipe.localaws.standin.SnsStandInResource;
import io.gpupipe.model.JobJson;
import io.gpupipe.repair.domain.GpuXids;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Posts the events/ samples through the mock Lambda event server to the real handler. */
@QuarkusTest
@WithTestResource(value = SnsStandInResource.class, initArgs = @ResourceArg(name = "gpupipe.repair.alarm-topic-arn",
        value = RepairLoggerHandlerTest.ALARM_TOPIC))
class RepairLoggerHandlerTest {
    static final String ALARM_TOPIC = "arn:aws:sns:us-east-1:123456789012:gpupipe-alarms";

    @InjectSnsStandIn
    SnsStandIn sns;

    @Inject
    RecordingJsonLines lines;

    @Inject
    RepairConfig config;

    @BeforeEach
    void reset() {
        sns.reset();
        lines.clear();
    }

    @Test
    void handle_shouldLogEmfAndPageAlarmTopic_whenInstanceImpairedByCriticalXid() {
        // when
        JsonNode report = invoke(sample("health-impaired-xid79.json"));

        // then: the response
        assertThat(report.get("outcome").asText()).isEqualTo("logged");
        assertThat(report.get("alarm").asBoolean()).isTrue();
        assertThat(report.get("xid").asText()).isEqualTo("79");
        // the alarm, readable, on the alarm topic
        assertThat(sns.published()).hasSize(1);
        SnsStandIn.Published alarm = sns.published().get(0);
        assertThat(alarm.topicArn()).isEqualTo(ALARM_TOPIC);
        assertThat(alarm.subject()).isEqualTo("GPU fault XID 79 on i-0a1b2c3d4e5f67890 (gpupipe)");
        assertThat(alarm.message()).contains("XID 79 (GPU has fallen off the bus)")
                .contains("Cluster: gpupipe")
                .contains("EC2 instance: i-0a1b2c3d4e5f67890")
                .contains("container-instance/gpupipe/4f9e1c2a7b3d4e5f8a9b0c1d2e3f4a5b")
                .contains("Capacity provider: gpupipe-small-gpu")
                .contains("ACCELERATED_COMPUTE=IMPAIRED (XID_79)");
        assertThat(report.get("alarmMessageId").asText()).isEqualTo(alarm.messageId());
        // one structured line, which is also the EMF metric
        JsonNode line = onlyLine();
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("Gpupipe");
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Dimensions/0").toString())
                .isEqualTo("[\"cluster\",\"status\",\"xid\"]");
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Metrics/0/Name").asText()).isEqualTo("GpuHealthEvents");
        assertThat(line.get("GpuHealthEvents").asDouble()).isEqualTo(1.0);
        assertThat(line.get("cluster").asText()).isEqualTo("gpupipe");
        assertThat(line.get("status").asText()).isEqualTo("IMPAIRED");
        assertThat(line.get("xid").asText()).isEqualTo("79");
        assertThat(line.get("ec2InstanceId").asText()).isEqualTo("i-0a1b2c3d4e5f67890");
        assertThat(line.get("containerInstance").asText()).endsWith("/gpupipe/4f9e1c2a7b3d4e5f8a9b0c1d2e3f4a5b");
        assertThat(line.get("eventId").asText()).isEqualTo("7bf73129-1428-4cd3-a780-95db273d1602");
        assertThat(line.get("healthReasons").toString()).isEqualTo("[\"ACCELERATED_COMPUTE=IMPAIRED (XID_79)\"]");
    }

    @Test
    void handle_shouldLogWithoutAlarm_whenXidIsNotCritical() {
        // when
        JsonNode report = invoke(sample("health-impaired-xid46.json"));

        // then
        assertThat(report.get("alarm").asBoolean()).isFalse();
        assertThat(report.get("xid").asText()).isEqualTo("46");
        assertThat(sns.published()).isEmpty();
        JsonNode line = onlyLine();
        assertThat(line.get("status").asText()).isEqualTo("IMPAIRED");
        assertThat(line.get("cluster").asText()).isEqualTo("gpupipe");
        assertThat(line.get("xid").asText()).isEqualTo("46");
    }

    @Test
    void handle_shouldLogRecovery_whenHealthReturnsToOk() {
        // when
        JsonNode report = invoke(sample("health-ok.json"));

        // then
        assertThat(report.get("status").asText()).isEqualTo("OK");
        assertThat(report.get("alarm").asBoolean()).isFalse();
        assertThat(sns.published()).isEmpty();
        JsonNode line = onlyLine();
        assertThat(line.get("xid").asText()).isEqualTo("none");
        assertThat(line.get("healthReasons").toString()).isEqualTo("[\"ACCELERATED_COMPUTE=OK\"]");
    }

    @Test
    void handle_shouldLogDraining_whenStateChanges() {
        // when
        JsonNode report = invoke(sample("state-draining.json"));

        // then
        assertThat(report.get("detailType").asText()).isEqualTo("ECS Container Instance State Change");
        assertThat(report.get("status").asText()).isEqualTo("DRAINING");
        JsonNode line = onlyLine();
        assertThat(line.get("status").asText()).isEqualTo("DRAINING");
        assertThat(line.get("ec2InstanceId").asText()).isEqualTo("i-0a1b2c3d4e5f67890");
        assertThat(line.get("xid").asText()).isEqualTo("none");
        assertThat(sns.published()).isEmpty();
    }

    @Test
    void handle_shouldAcknowledgeAndLog_whenEventIsOfAnotherType() {
        // when
        JsonNode report = invoke(sample("never-delivered/task-state-change.json"));

        // then
        assertThat(report.get("outcome").asText()).isEqualTo("ignored");
        assertThat(report.get("detailType").asText()).isEqualTo("ECS Task State Change");
        JsonNode line = onlyLine();
        assertThat(line.get("event").asText()).isEqualTo("gpu-health-ignored");
        assertThat(line.get("eventId").asText()).isEqualTo("3317b2af-7005-947d-b652-f55e762e571a");
        assertThat(line.has("_aws")).isFalse();
        assertThat(sns.published()).isEmpty();
    }

    @Test
    void handle_shouldAcknowledgeAndLog_whenEventIsMalformed() {
        for (String body : List.of("[]", "\"text\"", "{}",
                "{\"source\":\"aws.ecs\",\"detail-type\":\"ECS Container Instance Health Change\",\"detail\":7}",
                "{\"source\":\"aws.ecs\",\"detail-type\":\"ECS Container Instance State Change\",\"detail\":{}}")) {
            // when
            JsonNode report = invoke(body);

            // then
            assertThat(report.get("outcome").asText()).as(body).isEqualTo("ignored");
        }
        assertThat(lines.lines()).hasSize(5).allSatisfy(l -> assertThat(l).contains("gpu-health-ignored"));
        assertThat(sns.published()).isEmpty();
    }

    @Test
    void handle_shouldFailInvocation_whenAlarmTopicFails() {
        // given: SNS fails every attempt the SDK makes
        sns.failNext(10);

        // when: the invocation fails, so Lambda retries it and the on-failure destination sees it at the end
        String error = given().contentType("application/json").accept("application/json")
                .body(sample("health-impaired-xid79.json"))
                .when().post()
                .then().statusCode(500)
                .extract().asString();

        // then: the error names the failed alarm; the operator's log says so; the EMF line waits for the retry
        assertThat(error).contains("AlarmPublishFailedException");
        assertThat(lines.lines()).hasSize(1);
        assertThat(lines.lines().get(0)).contains("gpu-health-alarm-failed").contains("\"level\":\"ERROR\"")
                .contains("7bf73129-1428-4cd3-a780-95db273d1602");
    }

    @Test
    void handle_shouldPageOnceAndCountOnce_whenRetriedAfterAlarmTopicFailed() {
        // given: the first invocation failed on SNS
        sns.failNext(10);
        given().contentType("application/json").body(sample("health-impaired-xid79.json")).when().post()
                .then().statusCode(500);
        lines.clear();
        sns.failNext(0);

        // when: Lambda retries the same event
        JsonNode report = invoke(sample("health-impaired-xid79.json"));

        // then
        assertThat(report.get("alarm").asBoolean()).isTrue();
        assertThat(sns.published()).hasSize(1);
        assertThat(onlyLine().get("GpuHealthEvents").asDouble()).isEqualTo(1.0);
    }

    @Test
    void criticalXids_shouldDefaultToSeedTable() {
        assertThat(config.criticalXids()).isEqualTo(GpuXids.SEED_CRITICAL);
    }

    private JsonNode onlyLine() {
        assertThat(lines.lines()).hasSize(1);
        return JobJson.read(lines.lines().get(0), JsonNode.class);
    }
}
