package io.gpupipe.cdk;

import static io.gpupipe.cdk.TemplateJson.properties;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Template;

/** The scaling context switches: a warm window and Spot on the small tier, a 10-minute idle period. */
class WarmWindowAndSpotTest {
    private static Template gpu;

    @BeforeAll
    static void synthesize() {
        App app = new App(AppProps.builder().context(Map.of(
                "smallWarmWindow", "MON-FRI 08:00-18:00 Europe/Berlin 1",
                "smallSpot", "true",
                "idleToZeroMinutes", "10",
                "smallModelRevision", SynthesizedApp.SMALL_REVISION,
                "largeModelRevision", SynthesizedApp.LARGE_REVISION,
                "speechModelRevision", SynthesizedApp.SPEECH_REVISION)).build());
        gpu = Template.fromStack(GpupipeApp.build(app).worker());
    }

    @Test
    void warmWindow_shouldRaiseAndLowerTheSmallTiersMinimum_onItsScheduleAndTimeZone() {
        // when
        List<Object> actions = targets().stream()
                .filter(t -> t.containsKey("ScheduledActions"))
                .flatMap(t -> TemplateJson.list(t.get("ScheduledActions")).stream()).toList();

        // then: only the small tier has a window: 1 task from 08:00, 0 from 18:00, Berlin time
        assertThat(actions).hasSize(2);
        assertThat(actions.get(0).toString()).contains("cron(0 8 ? * MON-FRI *)", "Europe/Berlin", "MinCapacity=1");
        assertThat(actions.get(1).toString()).contains("cron(0 18 ? * MON-FRI *)", "Europe/Berlin",
                "MinCapacity=0");
    }

    @Test
    void idleToZero_shouldFollowTheContext() {
        gpu.findResources("AWS::CloudWatch::Alarm").forEach((id, alarm) -> {
            if (id.contains("ToZeroAlarm")) {
                assertThat(properties(alarm)).containsEntry("EvaluationPeriods", 10);
            }
        });
    }

    @Test
    void spot_shouldRunEveryTaskAfterTheFirstOnSpot_forTheSmallTierOnly() {
        // then: two small-tier providers (On-Demand + Spot), one large
        List<String> providers = gpu.findResources("AWS::ECS::CapacityProvider").values().stream()
                .map(p -> properties(p).toString()).toList();
        assertThat(providers).hasSize(Tiers.defaults().size() + 1);
        assertThat(providers.stream().filter(p -> p.contains("CapacityOptionType=SPOT"))).hasSize(1);
        String strategies = gpu.findResources("AWS::ECS::Service").values().stream()
                .map(s -> properties(s).get("CapacityProviderStrategy").toString()).toList().toString();
        assertThat(strategies).contains("Base=1", "Weight=0");
    }

    private static List<Map<String, Object>> targets() {
        return gpu.findResources("AWS::ApplicationAutoScaling::ScalableTarget").values().stream()
                .map(TemplateJson::properties).toList();
    }
}
