package io.gpupipe.notifier;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/** Configuration of the result notifier (env vars GPUPIPE_NOTIFIER_*). */
@ConfigMapping(prefix = "gpupipe.notifier")
public interface NotifierConfig {
    /** SNS topic for succeeded jobs. */
    String successTopicArn();

    /** SNS topic for failed jobs. */
    String errorTopicArn();

    /**
     * The callback signing secret ({@link io.gpupipe.model.notify.CallbackKey}: {@code whsec_<base64>}, or any other
     * string, whose UTF-8 bytes are the key) as a plain value: for the local stack and tests only. Exactly one of
     * this and {@link #callbackSecretArn()} is set (checked at startup by {@link CallbackSecret}).
     */
    Optional<String> callbackSecret();

    /**
     * ARN of the Secrets Manager secret whose SecretString is the callback signing secret, read at runtime (in AWS),
     * so the key never sits in the function's environment. Exactly one of this and {@link #callbackSecret()} is set.
     */
    Optional<String> callbackSecretArn();

    /**
     * Callback hosts exempt from the address check (exact names, case-insensitive), and allowed over http. Empty in
     * production; the local stack lists {@code localhost}.
     */
    Optional<Set<String>> allowedCallbackHosts();

    /**
     * The callback queue, consumed by this function: every job's callback is handed to it and delivered from it, one
     * attempt per message, retried with a growing delay; unset, callbacks are sent within the result's invocation
     * ({@code callback.max-attempts}) and not retried after.
     */
    Optional<String> callbackRetryQueueUrl();

    /**
     * The batch queue ({@code GPUPIPE_NOTIFIER_BATCH_QUEUE_URL}): where a batch chunk whose last line's result this
     * function recorded is handed back to the batch function; unset, batch lines' results are not recorded.
     */
    Optional<String> batchQueueUrl();

    /**
     * How long releasing a finished job (or batch) from its owner's ledger of unfinished work may keep meeting
     * concurrent writers before the record fails (and is retried): the router's {@code gpupipe.router.quota.contention}.
     */
    @WithDefault("5s")
    Duration quotaContention();

    Callback callback();

    /**
     * Callback HTTP timing and retries. The connect and request timeouts, attempts and back-off apply where a callback
     * is sent within an invocation (a batch's event, or no callback queue); every delivery from the queue is one
     * attempt within {@link #redeliveryAttemptTimeout()}.
     */
    interface Callback {
        @WithDefault("2s")
        Duration connectTimeout();

        /** Per attempt, from sending to the response headers. */
        @WithDefault("5s")
        Duration requestTimeout();

        @WithDefault("3")
        int maxAttempts();

        @WithDefault("200ms")
        Duration initialBackoff();

        @WithDefault("2s")
        Duration maxBackoff();

        /**
         * The one attempt of a delivery from the callback queue, from connecting to the response headers, after which
         * it is cancelled: the callback queue's batch size times this must fit the function's timeout (sam-template.yaml, checked
         * by the cdk module's CallbackRedeliveryBudgetTest).
         */
        @WithDefault("8s")
        Duration redeliveryAttemptTimeout();

        /** Delay before the first redelivery after a failed attempt; doubled each time, capped at 900 s. */
        @WithDefault("30s")
        Duration redeliveryFirstDelay();

        /** After this long since the callback was queued, it is recorded undeliverable. */
        @WithDefault("24h")
        Duration redeliveryGiveUpAfter();

        /**
         * Also send the deprecated {@code X-Gpupipe-Timestamp}/{@code X-Gpupipe-Signature} pair beside the Standard
         * Webhooks headers, for receivers not yet moved over; the pair and this key go in the next release.
         */
        @WithDefault("true")
        boolean legacySignature();
    }
}
