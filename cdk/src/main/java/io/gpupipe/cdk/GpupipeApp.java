package io.gpupipe.cdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.TagProps;
import software.amazon.awscdk.Tags;

/**
 * The CDK app of gpupipe's GPU side. Stacks by lifecycle: network, registry, workload, monitoring. Synthesize
 * offline with {@code cdk/synth.sh} (or {@code cdk synth}); deploy after the SAM stack.
 *
 * <p>Context (-c key=value, or cdk.json): {@code samStackName} (default gpupipe), {@code workerImageTag}
 * (default 0.1.0), {@code <tier>ModelImageTag} and {@code <tier>ModelRevision} (default: IMAGE_TAG and the 40-hex
 * MODEL_REVISION of native-build/models/{@code <tier>}.env), {@code resultsKmsKeyArn} (when the bucket uses SSE-KMS),
 * {@code <tier>WarmWindow} (e.g. "MON-FRI 08:00-18:00 Europe/Berlin 1", see {@link TierScaling}), {@code <tier>Spot}
 * (true: tasks after the first on Spot, see {@link TierService}), {@code idleToZeroMinutes} (default 5). Task
 * ceilings are the SAM stack's {@code <Tier>MaxTasks} parameters. The cold-start levers (docs/cold-start.md):
 * {@code <tier>Weights} ({@code image} or {@code s3}, with {@code modelWeightsBucket}; see {@link ModelWeights}),
 * {@code <tier>FastReadiness} (true: the worker starts with its model server, see {@link TierTask}),
 * {@code <tier>WarmPool} (true: an EC2 Auto Scaling group with a warm pool, with {@code <tier>InstanceType} and
 * optionally {@code <tier>WarmPoolSize}; see {@link WarmPoolCapacity}). The tiers are shared-model's tier catalogue
 * with their model files ({@link Tiers}).
 */
public final class GpupipeApp {
    private GpupipeApp() {
    }

    public static void main(String[] args) {
        App app = new App();
        build(app);
        app.synth();
    }

    /** Adds gpupipe's stacks to {@code app}; fails with the sizing gate's message if a tier's model cannot fit. */
    public static Stacks build(App app) {
        return build(app, Tiers.defaults());
    }

    /** Adds gpupipe's stacks for {@code specs} (the catalogue's tiers with their models) to {@code app}. */
    public static Stacks build(App app, List<TierSpec> specs) {
        String samStack = context(app, "samStackName").orElse("gpupipe");
        SamExports sam = new SamExports(samStack);
        List<TierSpec> tiers = tiers(app, specs);
        StackProps props = StackProps.builder().env(environment()).build();

        NetworkStack network = new NetworkStack(app, samStack + "-network", props);
        RegistryStack registry = new RegistryStack(app, samStack + "-registry", props);
        WorkerStack worker = new WorkerStack(app, samStack + "-gpu", props, network.getVpc(),
                registry.getWorkerRepository(), registry.getModelServerRepository(),
                new WorkerStack.Inputs(sam, tiers, context(app, "workerImageTag").orElse("0.1.0"),
                        context(app, "resultsKmsKeyArn")));
        MonitoringStack monitoring = new MonitoringStack(app, samStack + "-monitoring", props, sam, tiers);
        // Dashboards are left untagged: cfn-lint 1.51's schema does not know AWS::CloudWatch::Dashboard Tags yet.
        Tags.of(app).add("project", "gpupipe", TagProps.builder()
                .excludeResourceTypes(List.of("AWS::CloudWatch::Dashboard")).build());
        return new Stacks(network, registry, worker, monitoring);
    }

    /** The four stacks, for tests. */
    public record Stacks(NetworkStack network, RegistryStack registry, WorkerStack worker,
                         MonitoringStack monitoring) {
    }

    static List<TierSpec> tiers(App app, List<TierSpec> specs) {
        List<TierSpec> tiers = new ArrayList<>();
        for (TierSpec spec : specs) {
            String name = spec.tier().wireName();
            TierSpec tier = spec;
            Optional<String> tag = context(app, name + "ModelImageTag");
            if (tag.isPresent()) {
                tier = tier.withModelServerImageTag(tag.get());
            }
            Optional<String> revision = context(app, name + "ModelRevision");
            if (revision.isPresent()) {
                tier = tier.withModelRevision(revision.get());
            }
            tiers.add(tier);
        }
        return tiers;
    }

    /** Account and region from the CDK CLI when it runs the app; none (environment-agnostic) offline. */
    private static Environment environment() {
        String account = System.getenv("CDK_DEFAULT_ACCOUNT");
        String region = System.getenv("CDK_DEFAULT_REGION");
        if (account == null || region == null) {
            return null;
        }
        return Environment.builder().account(account).region(region).build();
    }

    private static Optional<String> context(App app, String key) {
        Object value = app.getNode().tryGetContext(key);
        return value == null || value.toString().isBlank() ? Optional.empty() : Optional.of(value.toString());
    }
}
