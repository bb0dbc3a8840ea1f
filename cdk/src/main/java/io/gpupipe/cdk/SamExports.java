package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import software.amazon.awscdk.Fn;

/**
 * The serverless (SAM) stack's exports this app imports: {@code <samStack>-queue-url-<tier>} and so on. The names
 * are defined in sam-template.yaml's Outputs (the per-tier ones written by {@link SamTierBlocks}); deploy that stack
 * first.
 */
public record SamExports(String samStackName) {

    /** The per-tier exports, by the suffix after {@code <samStack>-} (SamTierBlocks writes them into the template). */
    public enum TierExport {
        QUEUE_URL("queue-url-"), QUEUE_ARN("queue-arn-"), QUEUE_NAME("queue-name-"), MAX_TASKS("max-tasks-"),
        SERVICE_NAME("service-name-");

        private final String prefix;

        TierExport(String prefix) {
            this.prefix = prefix;
        }

        /** {@code queue-url-small} for the small tier. */
        public String suffix(Tier tier) {
            return prefix + tier.wireName();
        }
    }

    public String queueUrl(Tier tier) {
        return imported(TierExport.QUEUE_URL.suffix(tier));
    }

    public String queueArn(Tier tier) {
        return imported(TierExport.QUEUE_ARN.suffix(tier));
    }

    public String queueName(Tier tier) {
        return imported(TierExport.QUEUE_NAME.suffix(tier));
    }

    public String serviceName(Tier tier) {
        return imported(TierExport.SERVICE_NAME.suffix(tier));
    }

    /** The tier's task ceiling (a number, exported as text). */
    public String maxTasks(Tier tier) {
        return imported(TierExport.MAX_TASKS.suffix(tier));
    }

    public String dlqUrl() {
        return imported("dlq-url");
    }

    public String dlqArn() {
        return imported("dlq-arn");
    }

    public String dlqName() {
        return imported("dlq-name");
    }

    public String maxReceiveCount() {
        return imported("max-receive-count");
    }

    public String bucketName() {
        return imported("bucket-name");
    }

    public String metricNamespace() {
        return imported("metric-namespace");
    }

    public String alarmTopicArn() {
        return imported("alarm-topic-arn");
    }

    public String clusterName() {
        return imported("cluster-name");
    }

    /** The deployment key's secret: the worker verifies the router's seals with it (DeploymentKey). */
    public String deploymentKeySecretArn() {
        return imported("deployment-key-secret-arn");
    }

    /** The export name (not its value), for tests and docs. */
    public String exportName(String suffix) {
        return samStackName + "-" + suffix;
    }

    private String imported(String suffix) {
        return Fn.importValue(exportName(suffix));
    }
}
