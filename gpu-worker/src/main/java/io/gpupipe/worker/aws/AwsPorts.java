package io.gpupipe.worker.aws;

import io.gpupipe.adapters.CacheStore;
import io.gpupipe.adapters.TierQueue;
import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.adapters.aws.S3CacheStore;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.worker.WorkerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The worker's ports (adapters module) over the Quarkus-managed SQS and S3 clients. */
@ApplicationScoped
public class AwsPorts {

    @Produces
    @Singleton
    TierQueue jobQueue(SqsClient sqs, WorkerConfig config) {
        return new SqsTierQueue(sqs, config.queueUrl(), config.dlqUrl());
    }

    @Produces
    @Singleton
    WorkerJobStore jobStore(S3Client s3, WorkerConfig config) {
        return new S3JobStore(s3, config.bucket());
    }

    @Produces
    @Singleton
    CacheStore cacheStore(S3Client s3, WorkerConfig config) {
        return new S3CacheStore(s3, config.bucket());
    }
}
