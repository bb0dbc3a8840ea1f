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
 * <p>Context (-c key=value, cdk/cdk.context.json, or cdk.json): {@code samConfigEnv} (default {@code default}: the
 * samconfig.toml environment whose {@code stack_name} and {@code region} this app deploys against, see {@link
 * SamConfig}), {@code samStackName} and {@code region} (override those two), {@code workerImageTag} (default: the SSM
 * parameter {@code /gpupipe/<samStack>/worker-image-tag} the image step writes, read at deploy time; see {@link
 * WorkerStack}), {@code <tier>ModelImageTag} and {@code <tier>ModelRevision} (default: IMAGE_TAG and the 40-hex
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
        String configEnv = context(app, "samConfigEnv").orElse(SamConfig.DEFAULT_ENVIRONMENT);
        Optional<SamConfig> samConfig = SamConfig.locate();
        if (samConfig.isPresent() && !samConfig.get().hasEnvironment(configEnv)) {
            throw new IllegalArgumentException("-c samConfigEnv=" + configEnv + ": samconfig.toml has no [" + configEnv
                    + ".*] tables (the environment `sam deploy --config-env` deployed the serverless stack with)");
        }
        String samStack = context(app, "samStackName")
                .or(() -> samConfig.flatMap(c -> c.stackName(configEnv))).orElse("gpupipe");
        Optional<String> region = context(app, "region").or(() -> samConfig.flatMap(c -> c.region(configEnv)));
        SamExports sam = new SamExports(samStack);
        List<TierSpec> tiers = tiers(app, specs);
        StackProps props = StackProps.builder().env(environment(region)).build();

        NetworkStack network = new NetworkStack(app, samStack + "-network", props);
        RegistryStack registry = new RegistryStack(app, samStack + "-registry", props,
                tiers.stream().map(TierSpec::tier).toList());
        WorkerStack worker = new WorkerStack(app, samStack + "-gpu", props, network.getVpc(),
                registry.getWorkerRepository(), registry.getModelServerRepository(),
                new WorkerStack.Inputs(sam, tiers, context(app, "workerImageTag"),
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

    /**
     * When the CDK CLI runs the app (it sets CDK_DEFAULT_ACCOUNT): its account, and the SAM stack's region from
     * samconfig.toml (or {@code -c region}) rather than the CLI profile's, so both sides share one region. Offline:
     * none (environment-agnostic templates).
     */
    private static Environment environment(Optional<String> samRegion) {
        return environment(samRegion, System.getenv("CDK_DEFAULT_ACCOUNT"), System.getenv("CDK_DEFAULT_REGION"));
    }

    static Environment environment(Optional<String> samRegion, String account, String cliRegion) {
        String region = samRegion.orElse(cliRegion);
        if (account == null || region == null) {
            return null;
        }
        if (cliRegion != null && !cliRegion.equals(region)) {
            System.err.println("gpupipe: deploying to " + region + ", the SAM stack's region (samconfig.toml or -c "
                    + "region), not the AWS CLI profile's " + cliRegion);
        }
        return Environment.builder().account(account).region(region).build();
    }

    private static Optional<String> context(App app, String key) {
        Object value = app.getNode().tryGetContext(key);
        return value == null || value.toString().isBlank() ? Optional.empty() : Optional.of(value.toString());
    }
}
