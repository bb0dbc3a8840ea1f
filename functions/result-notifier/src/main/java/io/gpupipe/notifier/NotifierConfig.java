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

    /** HMAC-SHA256 key for X-Gpupipe-Signature (inject from Secrets Manager/SSM, never commit it). */
    String callbackSecret();

    /**
     * Callback hosts exempt from the address check (exact names, case-insensitive), and allowed over http. Empty in
     * production; the local stack lists {@code localhost}.
     */
    Optional<Set<String>> allowedCallbackHosts();

    Callback callback();

    /** Callback HTTP timing and retries. */
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
    }
}
