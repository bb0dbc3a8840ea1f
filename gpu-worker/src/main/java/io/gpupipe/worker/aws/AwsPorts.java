package io.gpupipe.worker.aws;

import io.gpupipe.worker.CacheStore;
import io.gpupipe.worker.JobQueue;
import io.gpupipe.worker.JobStore;
import io.gpupipe.worker.WorkerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/** The worker's ports over the Quarkus-managed SQS and S3 clients ({@code quarkus.sqs.*}, {@code quarkus.s3.*}). */
@ApplicationScoped
public class AwsPorts {

    @Produces
    @Singleton
    JobQueue jobQueue(SqsClient sqs, WorkerConfig config) {
        return new SqsJobQueue(sqs, config.queueUrl(), config.dlqUrl());
    }

    @Produces
    @Singleton
    JobStore jobStore(S3Client s3, WorkerConfig config) {
        return new S3JobStore(s3, config.bucket());
    }

    @Produces
    @Singleton
    CacheStore cacheStore(S3Client s3, WorkerConfig config) {
        return new S3CacheStore(s3, config.bucket());
    }
}
