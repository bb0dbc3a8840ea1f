package io.gpupipe.localaws.standin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.localaws.LocalAws;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingException;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.ServiceNotFoundException;

/**
 * The control-plane calls the scaling function makes on a wake and after a scheduled run, against the stand-ins,
 * with the real SDK clients of the version in use (a protocol change of an SDK upgrade fails here): ECS UpdateService,
 * CloudWatch DescribeAlarms / Disable- and EnableAlarmActions, EC2 Auto Scaling DescribeAutoScalingGroups and
 * SetDesiredCapacity.
 */
class ScalingControlStandInTest {
    private static EcsStandIn ecsStandIn;
    private static CloudWatchStandIn cloudWatchStandIn;
    private static AutoScalingStandIn autoScalingStandIn;
    private static EcsClient ecs;
    private static CloudWatchClient cloudWatch;
    private static AutoScalingClient autoScaling;

    @BeforeAll
    static void start() throws Exception {
        ecsStandIn = new EcsStandIn();
        cloudWatchStandIn = new CloudWatchStandIn();
        autoScalingStandIn = new AutoScalingStandIn();
        Region region = Region.of(LocalAws.REGION);
        ecs = EcsClient.builder().endpointOverride(ecsStandIn.endpoint()).region(region)
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
        cloudWatch = CloudWatchClient.builder().endpointOverride(cloudWatchStandIn.endpoint()).region(region)
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
        autoScaling = AutoScalingClient.builder().endpointOverride(autoScalingStandIn.endpoint()).region(region)
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        ecs.close();
        cloudWatch.close();
        autoScaling.close();
        ecsStandIn.close();
        cloudWatchStandIn.close();
        autoScalingStandIn.close();
    }

    @BeforeEach
    void reset() {
        ecsStandIn.reset();
        cloudWatchStandIn.reset();
        autoScalingStandIn.reset();
    }

    @Test
    void updateService_shouldSetTheDesiredCount_andRefuseAMissingService() {
        // given
        ecsStandIn.setService("gpupipe", "gpupipe-small", 0, 0);

        // when
        ecs.updateService(b -> b.cluster("gpupipe").service("gpupipe-small").desiredCount(2));

        // then: desired changed, running not yet (ECS starts tasks later)
        var service = ecs.describeServices(b -> b.cluster("gpupipe").services("gpupipe-small")).services().get(0);
        assertThat(service.desiredCount()).isEqualTo(2);
        assertThat(service.runningCount()).isZero();
        assertThat(ecsStandIn.updates()).singleElement()
                .satisfies(u -> assertThat(u.path("desiredCount").asInt()).isEqualTo(2));
        assertThatThrownBy(() -> ecs.updateService(b -> b.cluster("gpupipe").service("nope").desiredCount(1)))
                .isInstanceOf(ServiceNotFoundException.class);
    }

    @Test
    void alarmActions_shouldSwitchOffAndOn_andDescribeOnlyAlarmsThatExist() {
        // given
        cloudWatchStandIn.setAlarm("gpupipe-small-to-zero", true, "ALARM");

        // when
        cloudWatch.disableAlarmActions(b -> b.alarmNames("gpupipe-small-to-zero"));
        List<MetricAlarm> off = cloudWatch.describeAlarms(b -> b.alarmNames("gpupipe-small-to-zero",
                "gpupipe-large-to-zero")).metricAlarms();
        cloudWatch.enableAlarmActions(b -> b.alarmNames("gpupipe-small-to-zero"));

        // then
        assertThat(off).singleElement().satisfies(a -> {
            assertThat(a.alarmName()).isEqualTo("gpupipe-small-to-zero");
            assertThat(a.actionsEnabled()).isFalse();
            assertThat(a.stateValueAsString()).isEqualTo("ALARM");
        });
        assertThat(cloudWatchStandIn.alarm("gpupipe-small-to-zero")).hasValueSatisfying(a ->
                assertThat(a.actionsEnabled()).isTrue());
    }

    @Test
    void autoScaling_shouldDescribeExistingGroupsAndSetTheirCapacity_andRefuseAMissingGroup() {
        // given
        autoScalingStandIn.setGroup("gpupipe-large-capacity", 0);

        // when
        List<AutoScalingGroup> groups = autoScaling.describeAutoScalingGroups(b -> b.autoScalingGroupNames(
                "gpupipe-small-capacity", "gpupipe-large-capacity")).autoScalingGroups();
        autoScaling.setDesiredCapacity(b -> b.autoScalingGroupName("gpupipe-large-capacity").desiredCapacity(1)
                .honorCooldown(false));

        // then
        assertThat(groups).extracting(AutoScalingGroup::autoScalingGroupName, AutoScalingGroup::desiredCapacity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("gpupipe-large-capacity", 0));
        assertThat(autoScalingStandIn.setDesiredCalls()).containsExactly(
                new AutoScalingStandIn.SetDesired("gpupipe-large-capacity", 1, false));
        assertThat(autoScalingStandIn.desired("gpupipe-large-capacity")).isEqualTo(1);
        assertThatThrownBy(() -> autoScaling.setDesiredCapacity(b -> b.autoScalingGroupName("nope")
                .desiredCapacity(1))).isInstanceOf(AutoScalingException.class)
                .hasMessageContaining("AutoScalingGroup name not found");
    }
}
