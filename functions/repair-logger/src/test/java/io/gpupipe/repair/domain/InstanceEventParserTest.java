package io.gpupipe.repair.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class InstanceEventParserTest {
    static final String HEALTH_IMPAIRED_XID79 = """
            {
              "version": "0",
              "id": "7bf73129-1428-4cd3-a780-95db273d1602",
              "detail-type": "ECS Container Instance Health Change",
              "source": "aws.ecs",
              "account": "123456789012",
              "time": "2026-11-29T10:15:00Z",
              "region": "us-east-1",
              "resources": ["arn:aws:ecs:us-east-1:123456789012:container-instance/gpupipe/0a1b2c"],
              "detail": {
                "clusterArn": "arn:aws:ecs:us-east-1:123456789012:cluster/gpupipe",
                "containerInstanceArn": "arn:aws:ecs:us-east-1:123456789012:container-instance/gpupipe/0a1b2c",
                "capacityProviderName": "gpupipe-small-cp",
                "ec2InstanceId": "i-0abcdef1234567890",
                "overallStatus": "IMPAIRED",
                "healthChecks": [
                  {"type": "ACCELERATED_COMPUTE", "status": "IMPAIRED", "lastStatusChange": "2026-11-29T10:14:53Z",
                   "lastUpdated": "2026-11-29T10:14:09Z", "statusReason": "XID_79"}
                ]
              }
            }
            """;

    static final String STATE_DRAINING = """
            {
              "version": "0",
              "id": "8f07ce4f-2c5f-4b8c-9b9e-6c2d0c6f1e11",
              "detail-type": "ECS Container Instance State Change",
              "source": "aws.ecs",
              "account": "123456789012",
              "time": "2026-11-29T10:16:00Z",
              "region": "us-east-1",
              "resources": ["arn:aws:ecs:us-east-1:123456789012:container-instance/gpupipe/0a1b2c"],
              "detail": {
                "agentConnected": true,
                "clusterArn": "arn:aws:ecs:us-east-1:123456789012:cluster/gpupipe",
                "containerInstanceArn": "arn:aws:ecs:us-east-1:123456789012:container-instance/gpupipe/0a1b2c",
                "ec2InstanceId": "i-0abcdef1234567890",
                "status": "DRAINING",
                "version": 14,
                "updatedAt": "2026-11-29T10:16:00.123Z"
              }
            }
            """;

    @Test
    void parse_shouldReadHealthChange_withXidFromStatusReason() {
        // when
        InstanceEventParser.Parsed parsed = InstanceEventParser.parse(HEALTH_IMPAIRED_XID79);

        // then
        assertThat(parsed).isInstanceOf(InstanceEventParser.Parsed.Recognized.class);
        InstanceEvent event = ((InstanceEventParser.Parsed.Recognized) parsed).event();
        assertThat(event.kind()).isEqualTo(InstanceEvent.Kind.HEALTH_CHANGE);
        assertThat(event.eventId()).isEqualTo("7bf73129-1428-4cd3-a780-95db273d1602");
        assertThat(event.time()).isEqualTo(Instant.parse("2026-11-29T10:15:00Z"));
        assertThat(event.cluster()).isEqualTo("gpupipe");
        assertThat(event.containerInstanceArn()).endsWith("container-instance/gpupipe/0a1b2c");
        assertThat(event.ec2InstanceId()).isEqualTo("i-0abcdef1234567890");
        assertThat(event.capacityProvider()).isEqualTo("gpupipe-small-cp");
        assertThat(event.status()).isEqualTo("IMPAIRED");
        assertThat(event.xids()).containsExactly(79);
        assertThat(event.healthReasons()).containsExactly("ACCELERATED_COMPUTE=IMPAIRED (XID_79)");
    }

    @Test
    void parse_shouldReadStateChange_withInstanceStatus() {
        // when
        InstanceEventParser.Parsed parsed = InstanceEventParser.parse(STATE_DRAINING);

        // then
        InstanceEvent event = ((InstanceEventParser.Parsed.Recognized) parsed).event();
        assertThat(event.kind()).isEqualTo(InstanceEvent.Kind.STATE_CHANGE);
        assertThat(event.status()).isEqualTo("DRAINING");
        assertThat(event.xids()).isEmpty();
        assertThat(event.healthChecks()).isEmpty();
        assertThat(event.capacityProvider()).isNull();
    }

    @Test
    void parse_shouldCollectXidsFromEveryReason_withoutDuplicates() {
        // given
        String json = HEALTH_IMPAIRED_XID79.replace("\"statusReason\": \"XID_79\"",
                "\"statusReason\": \"XID_48, Xid 79\"}, {\"type\": \"DAEMON\", \"status\": \"OK\","
                        + " \"statusReason\": \"XID_48\"");

        // when
        InstanceEvent event = ((InstanceEventParser.Parsed.Recognized) InstanceEventParser.parse(json)).event();

        // then
        assertThat(event.xids()).containsExactly(48, 79);
        assertThat(event.healthChecks()).hasSize(2);
    }

    @Test
    void parse_shouldReturnUnrecognized_whenDetailTypeOrSourceIsOther() {
        // given
        String task = STATE_DRAINING.replace("ECS Container Instance State Change", "ECS Task State Change");
        String spoofed = STATE_DRAINING.replace("\"aws.ecs\"", "\"my.app\"");

        // when, then
        assertThat(InstanceEventParser.parse(task)).isInstanceOfSatisfying(
                InstanceEventParser.Parsed.Unrecognized.class, u -> {
                    assertThat(u.detailType()).isEqualTo("ECS Task State Change");
                    assertThat(u.id()).isEqualTo("8f07ce4f-2c5f-4b8c-9b9e-6c2d0c6f1e11");
                });
        assertThat(InstanceEventParser.parse(spoofed)).isInstanceOf(InstanceEventParser.Parsed.Unrecognized.class);
    }

    @Test
    void parse_shouldReturnUnrecognized_whenMalformed() {
        assertThat(InstanceEventParser.parse("{not json")).isInstanceOf(
                InstanceEventParser.Parsed.Unrecognized.class);
        assertThat(InstanceEventParser.parse("[]")).isInstanceOf(InstanceEventParser.Parsed.Unrecognized.class);
        assertThat(InstanceEventParser.parse("{\"source\":\"aws.ecs\",\"detail-type\":"
                + "\"ECS Container Instance Health Change\",\"detail\":\"oops\"}"))
                .isInstanceOf(InstanceEventParser.Parsed.Unrecognized.class);
        assertThat(InstanceEventParser.parse("{\"source\":\"aws.ecs\",\"detail-type\":"
                + "\"ECS Container Instance Health Change\",\"detail\":{\"clusterArn\":\"x\"}}"))
                .isInstanceOfSatisfying(InstanceEventParser.Parsed.Unrecognized.class,
                        u -> assertThat(u.reason()).contains("overallStatus"));
        assertThat(InstanceEventParser.parse("{\"source\":\"aws.ecs\",\"resources\":{\"a\":1}}"))
                .isInstanceOf(InstanceEventParser.Parsed.Unrecognized.class);
    }
}
