package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecr.LifecycleRule;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.ecr.RepositoryEncryption;
import software.amazon.awscdk.services.ecr.TagMutability;
import software.amazon.awscdk.services.ecr.TagStatus;
import software.constructs.Construct;

/**
 * Image repositories (deployed before images are pushed, kept when the GPU stack goes): the gpu-worker image and
 * the model-server images (weights baked in; each tier's tags start with {@code <tier>-}, native-build/models/
 * {@code <tier>.env} IMAGE_TAG). The VPC has no route to public registries. Lifecycle: untagged images expire after
 * 7 days; the worker repository keeps its newest {@value #WORKER_IMAGES_KEPT} tags; the model-server repository keeps
 * the newest {@value #MODEL_IMAGES_KEPT_PER_TIER} tags of each tier by its own rule, so rebuilding one tier never
 * expires another tier's image in use. A tag of no tier's prefix is never expired.
 */
public class RegistryStack extends Stack {
    static final int WORKER_IMAGES_KEPT = 10;
    /** The deployed image, the one before it (rollback) and one built but not yet deployed. */
    static final int MODEL_IMAGES_KEPT_PER_TIER = 3;

    private final Repository workerRepository;
    private final Repository modelServerRepository;

    public RegistryStack(Construct scope, String id, StackProps props, List<Tier> tiers) {
        super(scope, id, props);
        workerRepository = repository("WorkerRepository", List.of(LifecycleRule.builder()
                .description("keep the newest " + WORKER_IMAGES_KEPT + " tagged worker images")
                .tagStatus(TagStatus.ANY)
                .maxImageCount(WORKER_IMAGES_KEPT)
                .build()));
        List<LifecycleRule> perTier = new ArrayList<>();
        for (Tier tier : tiers) {
            perTier.add(LifecycleRule.builder()
                    .description("keep the newest " + MODEL_IMAGES_KEPT_PER_TIER + " " + tier.wireName()
                            + " images (model images are ~10-40 GB each)")
                    .tagStatus(TagStatus.TAGGED)
                    .tagPrefixList(List.of(tagPrefix(tier)))
                    .maxImageCount(MODEL_IMAGES_KEPT_PER_TIER)
                    .build());
        }
        modelServerRepository = repository("ModelServerRepository", perTier);
        CfnOutput.Builder.create(this, "WorkerRepositoryUri").value(workerRepository.getRepositoryUri()).build();
        CfnOutput.Builder.create(this, "ModelServerRepositoryUri")
                .value(modelServerRepository.getRepositoryUri()).build();
    }

    /** The prefix every model-server image tag of {@code tier} starts with. */
    public static String tagPrefix(Tier tier) {
        return tier.wireName() + "-";
    }

    private Repository repository(String id, List<LifecycleRule> keepTagged) {
        // rule priorities are assigned in this order (CDK numbers rules without one, the TagStatus.ANY rule last)
        List<LifecycleRule> rules = new ArrayList<>();
        rules.add(LifecycleRule.builder()
                .description("expire untagged images after 7 days")
                .tagStatus(TagStatus.UNTAGGED)
                .maxImageAge(Duration.days(7))
                .build());
        rules.addAll(keepTagged);
        return Repository.Builder.create(this, id)
                .imageScanOnPush(true)
                .imageTagMutability(TagMutability.IMMUTABLE)
                .encryption(RepositoryEncryption.KMS)
                .lifecycleRules(rules)
                .build();
    }

    public IRepository getWorkerRepository() {
        return workerRepository;
    }

    public IRepository getModelServerRepository() {
        return modelServerRepository;
    }
}
