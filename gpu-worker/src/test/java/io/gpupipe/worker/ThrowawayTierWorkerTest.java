package io.gpupipe.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.adapters.aws.S3JobStore;
import io.gpupipe.adapters.aws.SqsTierQueue;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.localaws.LocalAwsOptions;
import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.JobStatus;
import io.gpupipe.model.Tier;
import io.gpupipe.model.TierCatalogue;
import io.gpupipe.model.job.JobResult;
import io.gpupipe.worker.support.CapturedEvents;
import io.gpupipe.worker.support.LocalPipeline;
import io.gpupipe.worker.support.WorkerConfigs;
import io.gpupipe.worker.throwaway.ThrowawayTier;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The throwaway tier, consumed: a {@code medium} tier added only as catalogue data ({@link ThrowawayTier}) gets its
 * own queue in the local AWS (created from the catalogue) and a worker configured for it, with the real SQS and S3 adapters and
 * the app's openai backend against the vLLM stand-in, consumes a job from that queue and writes its result. Routing,
 * scaling and synthesis of the same tier: cdk ThrowawayTierTest.
 */
@QuarkusTest
class ThrowawayTierWorkerTest extends WorkerAppTest {
    static final Duration RESULT_TIMEOUT = Duration.ofSeconds(30);
    static final Tier MEDIUM = ThrowawayTier.MEDIUM;

    @Test
    void mediumTier_shouldBeConsumedFromItsOwnQueue_byAWorkerConfiguredForIt() {
        // given the catalogue with one more tier, exactly what adding its entry to tiers.json gives
        TierCatalogue withMedium = ThrowawayTier.catalogue();
        try (LocalAws mediumAws = LocalAws.start(LocalAwsOptions.defaults().withTiers(withMedium)
                .withVisibilityTimeouts(Map.of(MEDIUM, 40)));
             LocalPipeline medium = new LocalPipeline(mediumAws)) {
            WorkerConfig config = WorkerConfigs.of(Map.of("gpupipe.worker.tier", "medium",
                    "gpupipe.worker.queue-url", mediumAws.queueUrl(MEDIUM), "gpupipe.worker.bucket", mediumAws.bucket(),
                    "gpupipe.worker.wait-time", "1s"));
            SqsTierQueue queue = new SqsTierQueue(medium.sqs(), config.queueUrl(), config.dlqUrl());
            WorkerSettings settings = WorkerSettings.resolve(config, queue.attributes(), "arn:medium-task",
                    withMedium);
            Worker worker = new Worker(settings, queue, new S3JobStore(medium.s3(), config.bucket()), backend,
                    new CapturedEvents(), Clock.systemUTC());
            worker.start();
            try {
                // when a job naming the tier and one it cannot serve arrive on its queue
                String id = LocalPipeline.newRequestId();
                String prompt = "Medium sized question " + id;
                String speech = LocalPipeline.newRequestId();
                medium.send("gpupipe-medium", LocalPipeline.job(id, prompt, j -> j.put("route", "medium")));
                medium.send("gpupipe-medium", LocalPipeline.job(speech, "No voice here", j -> j.put("task",
                        "speech")));
                JobResult result = medium.awaitResult(id, RESULT_TIMEOUT);
                JobResult refused = medium.awaitResult(speech, RESULT_TIMEOUT);

                // then the worker took the tier's settings from the catalogue copy and the queue
                assertThat(settings.modelTimeout()).isEqualTo(Duration.ofSeconds(25));
                assertThat(settings.visibilityTimeout()).isEqualTo(Duration.ofSeconds(40));
                assertThat(result.status()).isEqualTo(JobStatus.SUCCEEDED);
                assertThat(result.tier()).isEqualTo(MEDIUM);
                assertThat(result.taskArn()).isEqualTo("arn:medium-task");
                assertThat(result.result().text()).isNotBlank();
                assertThat(standIn.completionsWith(prompt)).isEqualTo(1);
                assertThat(refused.error().code()).isEqualTo(ErrorCodes.INVALID_REQUEST);
                assertThat(refused.error().message()).contains("tier medium cannot serve speech jobs");
                assertThat(medium.drainQueue("gpupipe-medium", Duration.ZERO)).isEmpty();
            } finally {
                worker.drain(Duration.ofSeconds(1));
            }
        }
    }
}
