package io.gpupipe.worker;

import static io.gpupipe.worker.support.Polling.await;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.job.InferenceJob;
import io.gpupipe.testsupport.CallCounter;
import io.gpupipe.worker.backend.openai.OpenAiBackend;
import io.gpupipe.worker.backend.openai.VllmClient;
import io.gpupipe.worker.standin.VllmStandIn;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.resteasy.reactive.client.api.QuarkusRestClientProperties;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

/**
 * Prints throughput figures (not a test; runs with {@code ./mvnw -B -Pbenchmark -pl gpu-worker verify}): the worker
 * with window 1 (the seeds' one-message-at-a-time design) and with the default window, against the vLLM stand-in
 * with continuous batching, and the stand-in's own saturated throughput called directly; then a larger server
 * (benchmark.large-slots, 64) with the window sized for it. The stand-in batches benchmark.slots sequences (16, as
 * vLLM --max-num-seqs 16, the worker's default model-server-slots, for which the default window is 20:
 * shared-model WindowSizing), each decode step takes benchmark.step-ms (8 ms, +1% per extra sequence) and every job
 * generates benchmark.tokens (50) tokens. benchmark.jobs (2000) per run.
 */
@QuarkusTest
class WorkerThroughputBenchmark {
    private static final int JOBS = Integer.getInteger("benchmark.jobs", 2000);
    /** Window 1 runs at ~2 jobs/s: 2,000 jobs took 16 minutes for a rate that 200 measure as well. */
    private static final int WINDOW_ONE_JOBS = Integer.getInteger("benchmark.window1-jobs", 200);
    private static final int SLOTS = Integer.getInteger("benchmark.slots", 16);
    private static final int LARGE_SLOTS = Integer.getInteger("benchmark.large-slots", 64);
    private static final int STEP_MS = Integer.getInteger("benchmark.step-ms", 8);
    private static final int TOKENS = Integer.getInteger("benchmark.tokens", 50);

    @Inject
    WorkerLifecycle lifecycle;

    @Test
    void throughput() throws Exception {
        WorkerSettings defaults = await("the app's settings").atMost(Duration.ofSeconds(60))
                .until(() -> lifecycle.worker().map(Worker::settings), Optional::isPresent).orElseThrow();
        int defaultWindow = defaults.maxInFlight();
        try (LocalAws aws = LocalAws.start(LocalAwsOptions.defaults());
             LocalPipeline setup = new LocalPipeline(aws)) {
            CallCounter counter = new CallCounter();
            WorkerSettings base = defaults.withTier(Tier.of("large")).withVisibilityTimeout(Duration.ofSeconds(300));
            System.out.printf("%nBENCHMARK %d jobs per run, %d tokens each; decode step %d ms (+1%%/extra sequence)%n",
                    JOBS, TOKENS, STEP_MS);
            double saturated;
            double one;
            double window;
            try (VllmStandIn standIn = VllmStandIn.start(standIn(SLOTS))) {
                OpenAiBackend backend = backend(standIn);
                System.out.printf("-- stand-in batching up to %d sequences%n", SLOTS);
                run("warm-up (not counted)", base.withMaxInFlight(defaultWindow), 200, aws, setup, backend, counter);
                saturated = saturated(backend, JOBS, SLOTS * 2);
                one = run("worker window 1", base.withMaxInFlight(1).withoutAdaptiveWindow(), WINDOW_ONE_JOBS, aws,
                        setup, backend, counter);
                window = run("worker window " + defaultWindow + " (default)", base.withMaxInFlight(defaultWindow),
                        JOBS, aws, setup, backend, counter);
            }
            System.out.printf("RATIO default/window1 = %.1fx (goal >= 8x); default/saturated = %.2f (goal >= 0.95; "
                    + "SQS calls/job goal <= 0.5, S3 calls/job <= 4)%n", window / one, window / saturated);
            try (VllmStandIn standIn = VllmStandIn.start(standIn(LARGE_SLOTS))) {
                OpenAiBackend backend = backend(standIn);
                System.out.printf("-- stand-in batching up to %d sequences%n", LARGE_SLOTS);
                double large = saturated(backend, JOBS, LARGE_SLOTS * 2);
                WorkerSettings matchedSettings = base.withServerSlots(LARGE_SLOTS);
                double matched = run("worker window " + matchedSettings.maxInFlight() + " (for " + LARGE_SLOTS
                        + " slots)", matchedSettings, JOBS, aws, setup, backend, counter);
                System.out.printf("RATIO window %d/saturated = %.2f%n%n", matchedSettings.maxInFlight(),
                        matched / large);
            }
        }
    }

    private static VllmStandIn.Settings standIn(int slots) {
        return VllmStandIn.Settings.defaults().withMaxSequences(slots).withStep(Duration.ofMillis(STEP_MS), 0.01)
                .withIgnoreEos(true);
    }

    private static OpenAiBackend backend(VllmStandIn standIn) {
        VllmClient client = QuarkusRestClientBuilder.newBuilder().baseUri(standIn.url())
                .readTimeout(10, TimeUnit.MINUTES).property(QuarkusRestClientProperties.CONNECTION_POOL_SIZE, 512)
                .build(VllmClient.class);
        OpenAiBackend backend = new OpenAiBackend(client, new OpenAiBackend.Settings(Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), false,
                Optional.empty()));
        backend.ensureReady();
        return backend;
    }

    private double run(String name, WorkerSettings settings, int jobs, LocalAws aws, LocalPipeline setup,
                       OpenAiBackend backend, CallCounter counter) {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<SendMessageBatchRequestEntry> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            String id = UUID.randomUUID().toString();
            batch.add(SendMessageBatchRequestEntry.builder().id(Integer.toString(batch.size()))
                    .messageBody(LocalPipeline.job(id, "benchmark " + tag + " job " + i,
                            j -> j.put("maxTokens", TOKENS))).build());
            if (batch.size() == 10 || i == jobs - 1) {
                List<SendMessageBatchRequestEntry> entries = List.copyOf(batch);
                setup.sqs().sendMessageBatch(b -> b.queueUrl(aws.queueUrl(LocalAws.ESCALATION_QUEUE)).entries(entries));
                batch.clear();
            }
        }
        CapturedEvents events = new CapturedEvents();
        try (SqsClient sqs = SqsClient.builder().endpointOverride(aws.sqsEndpoint()).region(Region.of(LocalAws.REGION))
                .credentialsProvider(LocalAws.credentials()).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(counter)).build();
             S3Client s3 = S3Client.builder().endpointOverride(aws.s3Endpoint()).region(Region.of(LocalAws.REGION))
                .forcePathStyle(true).credentialsProvider(LocalAws.credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(counter)).build()) {
            var queue = new SqsTierQueue(sqs, aws.queueUrl(LocalAws.ESCALATION_QUEUE),
                    Optional.of(aws.queueUrl(LocalAws.DLQ)));
            counter.reset();
            Worker worker = new Worker(settings, queue, new S3JobStore(s3, aws.bucket()), backend, events,
                    Clock.systemUTC());
            long start = System.nanoTime();
            worker.start();
            await(name + " to finish").atMost(Duration.ofMinutes(30))
                    .until(() -> events.all().stream().filter(e -> e.outcome() == JobOutcome.SUCCEEDED)
                            .count() >= jobs);
            double seconds = (System.nanoTime() - start) / 1e9;
            worker.drain(Duration.ofSeconds(5));
            double perSecond = jobs / seconds;
            System.out.printf("%-38s %8.1f jobs/s  (%6.1f s)  SQS calls/job %.2f, S3 calls/job %.2f  %s%n", name,
                    perSecond, seconds, counter.total("Sqs") / (double) jobs, counter.total("S3") / (double) jobs,
                    counter.calls());
            System.out.printf("%-38s retried HTTP attempts %d (%.3f per job); per job: ReceiveMessage %.2f, "
                    + "DeleteMessageBatch %.2f; load average %.1f%n", "", counter.retries(),
                    counter.retries() / (double) jobs, perJob(counter, "Sqs.ReceiveMessage", jobs),
                    perJob(counter, "Sqs.DeleteMessageBatch", jobs), loadAverage());
            return perSecond;
        }
    }

    private static double perJob(CallCounter counter, String call, int jobs) {
        return counter.calls().getOrDefault(call, 0L) / (double) jobs;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static double saturated(OpenAiBackend backend, int jobs, int clients) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        List<Future<?>> workers = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            workers.add(pool.submit(() -> {
                while (next.getAndIncrement() < jobs) {
                    backend.generate(new InferenceJob(UUID.randomUUID().toString(), Task.GENERATE, "direct call",
                            TOKENS, 0.0, 1.0, null, null, null, null, null, null), Duration.ofMinutes(5));
                }
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        pool.shutdown();
        double perSecond = jobs / ((System.nanoTime() - start) / 1e9);
        System.out.printf("%-38s %8.1f jobs/s%n", "stand-in saturated (direct, " + clients + " clients)", perSecond);
        return perSecond;
    }
}
