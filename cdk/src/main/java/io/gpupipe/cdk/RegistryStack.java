package io.gpupipe.cdk;

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
 * the model-server images (one tag per tier, weights baked in). The VPC has no route to public registries.
 */
public class RegistryStack extends Stack {
    private final Repository workerRepository;
    private final Repository modelServerRepository;

    public RegistryStack(Construct scope, String id, StackProps props) {
        super(scope, id, props);
        workerRepository = repository("WorkerRepository", 10);
        modelServerRepository = repository("ModelServerRepository", 6);
        CfnOutput.Builder.create(this, "WorkerRepositoryUri").value(workerRepository.getRepositoryUri()).build();
        CfnOutput.Builder.create(this, "ModelServerRepositoryUri")
                .value(modelServerRepository.getRepositoryUri()).build();
    }

    private Repository repository(String id, int keepTagged) {
        return Repository.Builder.create(this, id)
                .imageScanOnPush(true)
                .imageTagMutability(TagMutability.IMMUTABLE)
                .encryption(RepositoryEncryption.KMS)
                .lifecycleRules(List.of(
                        LifecycleRule.builder()
                                .rulePriority(1)
                                .description("expire untagged images after 7 days")
                                .tagStatus(TagStatus.UNTAGGED)
                                .maxImageAge(Duration.days(7))
                                .build(),
                        LifecycleRule.builder()
                                .rulePriority(2)
                                .description("keep the newest tagged images (model images are ~10 GB each)")
                                .tagStatus(TagStatus.ANY)
                                .maxImageCount(keepTagged)
                                .build()))
                .build();
    }

    public IRepository getWorkerRepository() {
        return workerRepository;
    }

    public IRepository getModelServerRepository() {
        return modelServerRepository;
    }
}
