package io.gpupipe.repair.domain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.model.JobJson;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepairAssessmentTest {
    private static final Instant NOW = Instant.parse("2026-11-29T10:20:00Z");

    private static InstanceEvent event(String json) {
        return ((InstanceEventParser.Parsed.Recognized) InstanceEventParser.parse(json)).event();
    }

    private static InstanceEvent healthWith(String status, String reason) {
        return event(InstanceEventParserTest.HEALTH_IMPAIRED_XID79
                .replace("\"overallStatus\": \"IMPAIRED\"", "\"overallStatus\": \"" + status + "\"")
                .replace("\"statusReason\": \"XID_79\"", "\"statusReason\": \"" + reason + "\""));
    }

    @Test
    void of_shouldAlarm_whenImpairedWithSeedCriticalXid() {
        for (int xid : List.of(48, 74, 79, 95, 140)) {
            RepairAssessment assessment = RepairAssessment.of(healthWith("IMPAIRED", "XID_" + xid),
                    GpuXids.SEED_CRITICAL);
            assertThat(assessment.alarm()).as("XID " + xid).isTrue();
            assertThat(assessment.criticalXids()).containsExactly(xid);
        }
    }

    @Test
    void of_shouldNotAlarm_whenXidIsNotCriticalOrInstanceIsOk() {
        assertThat(RepairAssessment.of(healthWith("IMPAIRED", "XID_46"), GpuXids.SEED_CRITICAL).alarm()).isFalse();
        assertThat(RepairAssessment.of(healthWith("OK", "XID_79"), GpuXids.SEED_CRITICAL).alarm()).isFalse();
        assertThat(RepairAssessment.of(event(InstanceEventParserTest.STATE_DRAINING), GpuXids.SEED_CRITICAL)
                .alarm()).isFalse();
    }

    @Test
    void xidDimension_shouldPreferCriticalXid_thenAnyXid_thenNone() {
        assertThat(RepairAssessment.of(healthWith("IMPAIRED", "XID_46 XID_95"), GpuXids.SEED_CRITICAL)
                .xidDimension()).isEqualTo("95");
        assertThat(RepairAssessment.of(healthWith("IMPAIRED", "XID_46"), GpuXids.SEED_CRITICAL).xidDimension())
                .isEqualTo("46");
        assertThat(RepairAssessment.of(event(InstanceEventParserTest.STATE_DRAINING), GpuXids.SEED_CRITICAL)
                .xidDimension()).isEqualTo("none");
    }

    @Test
    void toEmf_shouldCountGpuHealthEvents_byClusterStatusAndXid() {
        // given
        RepairAssessment assessment = RepairAssessment.of(event(InstanceEventParserTest.HEALTH_IMPAIRED_XID79),
                GpuXids.SEED_CRITICAL);

        // when
        JsonNode line = JobJson.read(assessment.toEmf("Gpupipe").toJson(NOW), JsonNode.class);

        // then
        JsonNode directive = line.at("/_aws/CloudWatchMetrics/0");
        assertThat(directive.get("Namespace").asText()).isEqualTo("Gpupipe");
        assertThat(directive.at("/Dimensions/0").toString()).isEqualTo("[\"cluster\",\"status\",\"xid\"]");
        assertThat(directive.at("/Metrics/0/Name").asText()).isEqualTo("GpuHealthEvents");
        assertThat(line.get("GpuHealthEvents").asDouble()).isEqualTo(1.0);
        assertThat(line.get("cluster").asText()).isEqualTo("gpupipe");
        assertThat(line.get("status").asText()).isEqualTo("IMPAIRED");
        assertThat(line.get("xid").asText()).isEqualTo("79");
        assertThat(line.get("ec2InstanceId").asText()).isEqualTo("i-0abcdef1234567890");
        assertThat(line.get("containerInstance").asText()).endsWith("/gpupipe/0a1b2c");
        assertThat(line.get("healthReasons").get(0).asText()).isEqualTo("ACCELERATED_COMPUTE=IMPAIRED (XID_79)");
        assertThat(line.get("xids").toString()).isEqualTo("[79]");
        assertThat(line.get("alarm").asBoolean()).isTrue();
    }

    @Test
    void alarmText_shouldNameXidInstanceAndCluster_readably() {
        // given
        RepairAssessment assessment = RepairAssessment.of(event(InstanceEventParserTest.HEALTH_IMPAIRED_XID79),
                GpuXids.SEED_CRITICAL);

        // when
        String subject = assessment.alarmSubject();
        String message = assessment.alarmMessage(NOW);

        // then
        assertThat(subject).isEqualTo("GPU fault XID 79 on i-0abcdef1234567890 (gpupipe)").hasSizeLessThan(101);
        assertThat(message).contains("XID 79 (GPU has fallen off the bus)")
                .contains("Cluster: gpupipe")
                .contains("EC2 instance: i-0abcdef1234567890")
                .contains("Status: IMPAIRED")
                .contains("ACCELERATED_COMPUTE=IMPAIRED (XID_79)")
                .contains("2026-11-29T10:15:00Z");
    }

    @Test
    void alarmSubject_shouldStayUnder100Characters_whenTheClusterNameIsLong() {
        // given: SNS refuses a Subject that is not "less than 100 characters long" (SNS API Reference, Publish)
        RepairAssessment assessment = RepairAssessment.of(event(InstanceEventParserTest.HEALTH_IMPAIRED_XID79
                .replace("cluster/gpupipe", "cluster/" + "c".repeat(120))), GpuXids.SEED_CRITICAL);

        // when
        String subject = assessment.alarmSubject();

        // then
        assertThat(subject).hasSizeLessThan(100).startsWith("GPU fault XID 79 on i-0abcdef1234567890 (")
                .endsWith("...");
    }

    @Test
    void parseXids_shouldAcceptCommonSpellings() {
        assertThat(GpuXids.parse("XID_79")).containsExactly(79);
        assertThat(GpuXids.parse("Xid 48; xid:140 and XID-74")).containsExactly(48, 140, 74);
        assertThat(GpuXids.parse("no code here, XIDX")).isEmpty();
        assertThat(GpuXids.parse(null)).isEmpty();
    }
}
