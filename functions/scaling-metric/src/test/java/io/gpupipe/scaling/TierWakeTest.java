package io.gpupipe.scaling;

import static io.gpupipe.testsupport.LambdaInvocations.invoke;
import static io.gpupipe.testsupport.LambdaInvocations.sample;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpupipe.adapters.RecordingJsonLines;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsTestResource;
import io.gpupipe.localaws.standin.AutoScalingStandIn;
import io.gpupipe.localaws.standin.AutoScalingStandInResource;
import io.gpupipe.localaws.standin.CloudWatchStandIn;
import io.gpupipe.localaws.standin.CloudWatchStandInResource;
import io.gpupipe.localaws.standin.EcsStandIn;
import io.gpupipe.localaws.standin.EcsStandInResource;
import io.gpupipe.model.scaling.TierWake;
import io.gpupipe.model.scaling.WarmCapacity;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The router's wake (events/tier-wake.json) through the mock Lambda event server: the function reads the real
 * queue (ElasticMQ) and the ECS stand-in, and sets the tier going on the ECS, CloudWatch and Auto Scaling stand-ins;
 * a scheduled run then switches the to-zero alarm back on and shrinks an idle warm-pool group.
 */
@QuarkusTest
@WithTestResource(LocalAwsTestResource.class)
@WithTestResource(value = EcsStandInResource.class, initArgs = @ResourceArg(
        name = EcsStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.ecs-endpoint-override"))
@WithTestResource(value = CloudWatchStandInResource.class, initArgs = @ResourceArg(
        name = CloudWatchStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.cloudwatch-endpoint-override"))
@WithTestResource(value = AutoScalingStandInResource.class, initArgs = @ResourceArg(
        name = AutoScalingStandInResource.ENDPOINT_PROPERTY, value = "gpupipe.scaling.autoscaling-endpoint-override"))
class TierWakeTest {
    static final String LARGE_SERVICE = "gpupipe-large";
    static final String LARGE_ALARM = TierWake.toZeroAlarmName(LARGE_SERVICE);
    static final String LARGE_GROUP = WarmCapacity.groupName(LARGE_SERVICE);

    @InjectLocalAws
    LocalAws aws;

    EcsStandIn ecs;

    CloudWatchStandIn cloudWatch;

    AutoScalingStandIn autoScaling;

    @Inject
    RecordingJsonLines lines;

    SqsClient sqs;
    QueueDriver large;

    @BeforeEach
    void setUp() {
        ecs.reset();
        cloudWatch.reset();
        autoScaling.reset();
        lines.clear();
        sqs = aws.newSqsClient();
        large = new QueueDriver(sqs, aws.queueUrl(LocalAws.ESCALATION_QUEUE));
        large.purge();
        ecs.setService("gpupipe", "gpupipe-small", 0, 0);
        ecs.setService("gpupipe", LARGE_SERVICE, 0, 0);
        ecs.setService("gpupipe", "gpupipe-speech", 0, 0);
    }

    @AfterEach
    void tearDown() {
        sqs.close();
    }

    @Test
    void wake_shouldSetTheDesiredCountAtOnce_afterSwitchingTheToZeroAlarmOff_andRaiseTheWarmPoolGroup() {
        // given: the large tier at zero after hours of idle (its to-zero alarm in ALARM), a job just sent to it
        cloudWatch.setAlarm(LARGE_ALARM, true, "ALARM");
        autoScaling.setGroup(LARGE_GROUP, 0);
        large.send(1);

        // when
        JsonNode run = invoke(sample("tier-wake.json"));

        // then: one task wanted and set, the alarm cannot undo it, the group starts a warm instance
        assertThat(run.at("/tiers/0/tier").asText()).isEqualTo("large");
        assertThat(run.at("/tiers/0/desiredTasks").asInt()).isEqualTo(1);
        assertThat(run.at("/tiers/0/reason").asText()).isEqualTo("WAKE");
        assertThat(cloudWatch.alarm(LARGE_ALARM)).hasValueSatisfying(a -> assertThat(a.actionsEnabled()).isFalse());
        assertThat(ecs.updates()).singleElement().satisfies(u -> {
            assertThat(u.path("service").asText()).isEqualTo(LARGE_SERVICE);
            assertThat(u.path("desiredCount").asInt()).isEqualTo(1);
        });
        assertThat(autoScaling.setDesiredCalls()).containsExactly(
                new AutoScalingStandIn.SetDesired(LARGE_GROUP, 1, false));
        assertThat(cloudWatch.puts()).isEmpty();
        assertThat(lines.lines()).anySatisfy(l -> assertThat(l).contains("\"event\":\"scaling-wake\"")
                .contains("\"reason\":\"WAKE\""));
    }

    @Test
    void wake_shouldChangeNothing_whenTheTierRunsAlready_orItsQueueIsEmpty() {
        // given: a running tier; then an idle one with nothing waiting (the job was taken or cancelled)
        ecs.setService("gpupipe", LARGE_SERVICE, 1, 1);
        large.send(1);
        JsonNode awake = invoke(sample("tier-wake.json"));
        ecs.setService("gpupipe", LARGE_SERVICE, 0, 0);
        large.purge();
        JsonNode empty = invoke(sample("tier-wake.json"));

        // then
        assertThat(awake.at("/tiers/0/reason").asText()).isEqualTo("AWAKE");
        assertThat(empty.at("/tiers/0/reason").asText()).isEqualTo("NOTHING_WAITING");
        assertThat(ecs.updates()).isEmpty();
        assertThat(autoScaling.setDesiredCalls()).isEmpty();
    }

    @Test
    void scheduledRun_shouldSwitchTheAlarmOnOnceOk_andShrinkAWarmPoolGroupAboveItsService() {
        // given: the wake's alarm has seen the job (OK) but is still switched off; a group left with an idle instance
        cloudWatch.setAlarm(LARGE_ALARM, false, "OK");
        cloudWatch.setAlarm(TierWake.toZeroAlarmName("gpupipe-small"), false, "ALARM");
        autoScaling.setGroup(LARGE_GROUP, 1);

        // when
        invoke(sample("scheduled-tick.json"));

        // then: large switched on, small (still ALARM: the job not yet seen) stays off; the group follows its service
        assertThat(cloudWatch.alarm(LARGE_ALARM)).hasValueSatisfying(a -> assertThat(a.actionsEnabled()).isTrue());
        assertThat(cloudWatch.alarm(TierWake.toZeroAlarmName("gpupipe-small")))
                .hasValueSatisfying(a -> assertThat(a.actionsEnabled()).isFalse());
        assertThat(autoScaling.setDesiredCalls()).containsExactly(
                new AutoScalingStandIn.SetDesired(LARGE_GROUP, 0, false));
    }
}
