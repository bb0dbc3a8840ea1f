package io.gpupipe.deadletter;

import io.gpupipe.adapters.JobResults;
import io.gpupipe.adapters.aws.S3JobStore;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.s3.S3Client;

/** The job store (adapters module) over the Quarkus-managed S3 client. */
@Singleton
public class DeadLetterBeans {

    @Produces
    @Singleton
    JobResults jobResults(S3Client s3, DeadLetterConfig config) {
        return new S3JobStore(s3, config.bucket());
    }
}
