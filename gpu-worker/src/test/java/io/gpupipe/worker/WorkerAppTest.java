package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;

import io.gpupipe.adapters.WorkerJobStore;
import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.localaws.InjectLocalAws;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.Tier;
import io.gpupipe.worker.backend.InferenceBackend;
import io.gpupipe.worker.standin.InjectVllmStandIn;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.support.LocalPipeline;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the gpu-worker {@code @QuarkusTest}s share, as the router's tests share {@code LocalAwsProbeSetup}: the local
 * SQS/S3 and the vLLM stand-in the app runs against (the test resources {@link WorkerPipelineTest} declares; Quarkus
 * keeps one app for all of them), the app's own worker (small tier) and backend, and a {@link LocalPipeline} on the
 * local AWS, opened once the app's worker consumes and closed after each test. {@link #queueWorker} builds a worker
 * of the test's own on another tier's queue.
 */
abstract class WorkerAppTest {
    @InjectLocalAws
    LocalAws aws;

    @InjectVllmStandIn
    VllmStandIn standIn;

    @Inject
    WorkerLifecycle lifecycle;

    @Inject
    InferenceBackend backend;

    LocalPipeline pipeline;

    @BeforeEach
    void openPipelineOnceTheAppsWorkerConsumes() {
        pipeline = new LocalPipeline(aws);
        await("the app's worker to start").atMost(Duration.ofSeconds(30)).until(() -> lifecycle.worker().isPresent());
    }

    @AfterEach
    void closePipeline() {
        pipeline.close();
    }

    /** The app's worker settings, for {@code tier}. */
    WorkerSettings appSettings(Tier tier) {
        return lifecycle.worker().orElseThrow().settings().withTier(tier);
    }

    /**
     * A worker of the test's own on the queue of {@code settings.tier()} (the real SQS adapter, the local DLQ), with
     * {@code store}, the app's backend and {@code events}; the test starts and drains it.
     */
    Worker queueWorker(WorkerSettings settings, WorkerJobStore store, JobEvents events) {
        return new Worker(settings, new SqsTierQueue(pipeline.sqs(), aws.queueUrl(settings.tier()),
                Optional.of(aws.queueUrl(LocalAws.DLQ))), store, backend, events, Clock.systemUTC());
    }

    /** The real S3 store on the local bucket. */
    WorkerJobStore localStore() {
        return new S3JobStore(pipeline.s3(), aws.bucket());
    }
}
