package io.gpupipe.notifier;

import io.gpupipe.adapters.DeliveryLedger;
import io.gpupipe.adapters.ResultStore;
import io.gpupipe.adapters.aws.S3BatchStore;
import io.gpupipe.adapters.aws.S3DeliveryLedger;
import io.gpupipe.adapters.aws.S3JobSlots;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.S3QuotaLedgers;
import io.gpupipe.adapters.aws.S3ResultStore;
import io.gpupipe.adapters.aws.S3UsageStore;
import io.gpupipe.adapters.aws.SqsBatchTasks;
import io.gpupipe.jobs.LineLedger;
import io.gpupipe.jobs.quota.JobSlotReleases;
import io.gpupipe.jobs.quota.OwnerQuotas;
import io.gpupipe.jobs.quota.QuotaReleases;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The notifier's ports (adapters module) over the Quarkus-managed S3 and SQS clients. */
@Singleton
public class NotifierBeans {

    @Produces
    @Singleton
    ResultStore resultStore(S3Client s3) {
        return new S3ResultStore(s3);
    }

    @Produces
    @Singleton
    DeliveryLedger deliveryLedger(S3Client s3, Clock clock) {
        return new S3DeliveryLedger(s3, clock);
    }

    @Produces
    @Singleton
    QuotaReleases quotaReleases(S3Client s3, Clock clock, NotifierConfig config) {
        return new QuotaReleases() {
            @Override
            public OwnerQuotas in(String bucket) {
                return new OwnerQuotas(new S3QuotaLedgers(s3, bucket), clock, config.quotaContention());
            }

            @Override
            public JobSlotReleases jobsIn(String bucket) {
                return new JobSlotReleases(new S3JobSlots(s3, bucket), new S3JobStore(s3, bucket));
            }
        };
    }

    @Produces
    @Singleton
    LineLedgers lineLedgers(S3Client s3, S3Presigner presigner, SqsClient sqs, NotifierConfig config) {
        var tasks = config.batchQueueUrl().filter(url -> !url.isBlank()).map(url -> new SqsBatchTasks(sqs, url));
        return bucket -> tasks.map(queue -> new LineLedger(new S3BatchStore(s3, presigner, bucket), queue));
    }

    @Produces
    @Singleton
    UsageAccounting.Stores usageStores(S3Client s3) {
        return bucket -> new S3UsageStore(s3, bucket);
    }
}
