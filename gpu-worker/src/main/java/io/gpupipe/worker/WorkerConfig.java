package io.gpupipe.worker;

import io.gpupipe.model.Task;
import io.gpupipe.model.Tier;
import io.gpupipe.model.observability.MetricNamespace;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The worker's configuration (prefix {@code gpupipe.worker}; env vars {@code GPUPIPE_WORKER_*}). Values the queue
 * already knows (visibility timeout, maxReceiveCount, DLQ) are read from it unless set here.
 */
@ConfigMapping(prefix = "gpupipe.worker")
public interface WorkerConfig {

    /** The tier this worker serves: a tier of the catalogue ({@code TierCatalogue}). */
    Tier tier();

    /** The tier queue to consume. */
    String queueUrl();

    /** Where malformed messages go; default: the queue's redrive policy target. */
    Optional<String> dlqUrl();

    /** The results bucket (markers, results, audio). */
    String bucket();

    /**
     * Sequences the model server runs at once (vLLM {@code --max-num-seqs}); the CDK app sets it from the figure it
     * passes to the server. Default {@code WindowSizing.DEFAULT_SERVER_SLOTS} (16).
     */
    Optional<Integer> modelServerSlots();

    /**
     * Most messages held at once (the concurrency window); default: every server slot plus a quarter waiting
     * ({@code WindowSizing}: 20 for 16 slots).
     */
    Optional<Integer> maxInFlight();

    /** Deliveries before SQS moves a message to the DLQ; default: the queue's redrive policy, else 3. */
    Optional<Integer> maxReceiveCount();

    /** Long-poll wait of one ReceiveMessage call (at most 20 s). */
    @WithDefault("20s")
    Duration waitTime();

    /** The queue's visibility timeout; default: read from the queue. */
    Optional<Duration> visibilityTimeout();

    /** Which inference backend serves the jobs. */
    @WithDefault("openai")
    BackendKind backend();

    /**
     * Time budget of one job's inference (all calls and retries of one delivery), by tier name
     * ({@code GPUPIPE_WORKER_MODEL_TIMEOUT_<TIER>}); a tier not named here gets the catalogue's.
     */
    Map<String, Duration> modelTimeout();

    /** On SIGTERM, how long in-flight jobs may keep running before they are released to other workers. */
    @WithDefault("100s")
    Duration drainGrace();

    Heartbeat heartbeat();

    Adaptive adaptive();

    Retry retry();

    WarmUp warmUp();

    /** Used when the ECS task metadata endpoint is not available. */
    @WithDefault("local")
    String taskArn();

    /** CloudWatch namespace of the job metrics (EMF); SAM's MetricNamespace via {@code GPUPIPE_METRIC_NAMESPACE}. */
    @WithDefault(MetricNamespace.CONFIG_DEFAULT)
    String metricNamespace();

    /** The model name to request and record; default: discovered from the server (openai) or the GGUF file name. */
    Optional<String> model();

    /** The model version recorded in results; default: the server's model root, or the GGUF's SHA-256 prefix. */
    Optional<String> modelVersion();

    OpenAi openai();

    Embedded embedded();

    /** The two backends. */
    enum BackendKind {
        OPENAI, EMBEDDED
    }

    interface Heartbeat {
        /** How often visibility is checked and extended; default: a quarter of the visibility timeout (≤ 30 s). */
        Optional<Duration> interval();
    }

    interface Adaptive {
        /** Shrink the window while the model server's own queue stays long (needs its Prometheus /metrics). */
        @WithDefault("true")
        boolean enabled();

        /**
         * Requests waiting inside the server above which the window shrinks; default: the window's headroom, the
         * requests the worker keeps waiting there on purpose ({@code WindowSizing#headroom}).
         */
        Optional<Integer> waitingThreshold();

        @WithDefault("3")
        int shrinkAfter();

        @WithDefault("1")
        int minWindow();

        @WithDefault("1s")
        Duration interval();
    }

    interface Retry {
        /** Calls to the model per delivery (first call included). */
        @WithDefault("4")
        int maxCalls();

        @WithDefault("500ms")
        Duration initialBackoff();

        @WithDefault("8s")
        Duration maxBackoff();

        /** Delay before a failed message is visible again (grows with its receive count). */
        @WithDefault("15s")
        Duration requeueDelay();

        @WithDefault("120s")
        Duration maxRequeueDelay();

        /**
         * Attempts of a result, audio or failed-result write whose failure is still retryable after the SDK's own
         * attempts (an S3 outage longer than they last): a retried PUT is cheaper than another model call.
         */
        @WithDefault("4")
        int resultWriteAttempts();

        @WithDefault("250ms")
        Duration resultWriteBackoff();

        @WithDefault("2s")
        Duration resultWriteMaxBackoff();

        /** Attempts of one DeleteMessageBatch for the messages it did not delete; a message left is redelivered. */
        @WithDefault("2")
        int deleteAttempts();

        @WithDefault("200ms")
        Duration deleteBackoff();

        /** Pause after a failed receive, doubled while receives keep failing; the poller never gives up. */
        @WithDefault("1s")
        Duration receiveBackoff();

        @WithDefault("20s")
        Duration maxReceiveBackoff();

        /** Re-reads of a job's marker that another writer changed before it could be marked running. */
        @WithDefault("3")
        int markerAttempts();
    }

    interface WarmUp {
        /** The task of the warm-up inference that readiness waits for. */
        @WithDefault("generate")
        Task task();

        @WithDefault("2s")
        Duration retryInterval();
    }

    interface OpenAi {
        /** Sent as {@code Authorization: Bearer ...} when set. */
        Optional<String> apiKey();

        /** Model for {@code speech} jobs; default: the text model. */
        Optional<String> speechModel();

        /** Voice for speech jobs that name none; default: the server's (vLLM-Omni Qwen3-TTS: vivian). */
        Optional<String> voice();

        /**
         * The root {@code GET /v1/models} must report for the model (the weights path, which embeds the pinned
         * commit) before the worker turns ready and claims {@code model-version}; a mismatch stops the worker.
         */
        Optional<String> expectedModelRoot();

        /** Forward the job's priority (vLLM needs --scheduling-policy priority to accept it). */
        @WithDefault("true")
        boolean sendPriority();
    }

    interface Embedded {
        /** A GGUF file for {@code generate} jobs; without it they fail with model_unavailable. */
        Optional<Path> textModelPath();

        /** FreeTTS voice for {@code speech} jobs. */
        @WithDefault("kevin16")
        String voice();

        @WithDefault("2048")
        int contextSize();

        /** CPU threads for llama.cpp; default: half the processors (it shares the host with the local stack). */
        Optional<Integer> threads();
    }
}
