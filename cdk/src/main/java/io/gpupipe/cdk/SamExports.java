package io.gpupipe.cdk;

import io.gpupipe.model.Tier;
import software.amazon.awscdk.Fn;

/**
 * The serverless (SAM) stack's exports this app imports: {@code <samStack>-queue-url-small} and so on. The names
 * are defined in sam-template.yaml's Outputs; deploy that stack first.
 */
public record SamExports(String samStackName) {

    public String queueUrl(Tier tier) {
        return imported("queue-url-" + tier.wireName());
    }

    public String queueArn(Tier tier) {
        return imported("queue-arn-" + tier.wireName());
    }

    public String queueName(Tier tier) {
        return imported("queue-name-" + tier.wireName());
    }

    public String serviceName(Tier tier) {
        return imported("service-name-" + tier.wireName());
    }

    /** The tier's task ceiling (a number, exported as text). */
    public String maxTasks(Tier tier) {
        return imported("max-tasks-" + tier.wireName());
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

    /** The export name (not its value), for tests and docs. */
    public String exportName(String suffix) {
        return samStackName + "-" + suffix;
    }

    private String imported(String suffix) {
        return Fn.importValue(exportName(suffix));
    }
}
