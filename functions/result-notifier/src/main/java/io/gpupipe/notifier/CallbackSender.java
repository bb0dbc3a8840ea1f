package io.gpupipe.notifier;

import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.notifier.domain.CallbackRetryPolicy;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.notify.CallbackTargetPolicy;
import io.gpupipe.model.notify.HostResolver;
import io.gpupipe.model.notify.LegacyCallbackSignature;
import io.gpupipe.model.retry.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * POSTs a signed result event to a job's callback URL: checks the target ({@link CallbackTargetPolicy}), then tries
 * up to {@code max-attempts} times with the JDK HttpClient (connect and per-request timeouts, redirects never
 * followed), pausing as {@link CallbackRetryPolicy} says between attempts: the loop every retry runs
 * ({@link RetryPolicy}), whose attempts and pauses are unit-tested in shared-model. Signed the Standard Webhooks way
 * ({@link CallbackSignature}): every attempt carries the same {@code webhook-id} (the caller's, stable across
 * redeliveries too) and is signed afresh, so its timestamp is current; the deprecated {@code X-Gpupipe-Signature}
 * pair is added while {@code callback.legacy-signature} is on.
 */
@ApplicationScoped
public class CallbackSender {
    static final String USER_AGENT = "gpupipe-result-notifier/1";

    private final HttpClient http;
    private final CallbackTargetPolicy targets;
    private final CallbackRetryPolicy retries;
    private final Duration requestTimeout;
    private final CallbackSecret secret;
    private final Clock clock;
    private final boolean legacySignature;

    CallbackSender(NotifierConfig config, CallbackSecret secret, Clock clock) {
        NotifierConfig.Callback callback = config.callback();
        this.http = HttpClient.newBuilder().connectTimeout(callback.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).version(HttpClient.Version.HTTP_1_1).build();
        this.targets = new CallbackTargetPolicy(config.allowedCallbackHosts().orElse(Set.of()),
                HostResolver.system());
        this.retries = new CallbackRetryPolicy(callback.maxAttempts(), callback.initialBackoff(),
                callback.maxBackoff());
        this.requestTimeout = callback.requestTimeout();
        this.secret = secret;
        this.clock = clock;
        this.legacySignature = callback.legacySignature();
    }

    /**
     * Sends {@code body} to {@code url} as event {@code messageId} ({@link CallbackSignature#messageId}), or refuses
     * to.
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException only when the signing secret cannot be read (first
     *     use of a secret configured by ARN); nothing has been sent then
     */
    public CallbackDelivery send(String url, String messageId, String body) {
        CallbackTargetPolicy.Verdict verdict = targets.check(url);
        if (verdict instanceof CallbackTargetPolicy.Verdict.Refused) {
            return CallbackDelivery.refused(((CallbackTargetPolicy.Verdict.Refused) verdict).reason());
        }
        return deliver(((CallbackTargetPolicy.Verdict.Allowed) verdict).uri(), messageId, body);
    }

    /**
     * Resolves the signing key now (a no-op once cached), so that a Secrets Manager failure fails the record before
     * anything has been published for it.
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException when the secret cannot be read
     */
    public void requireSecret() {
        secret.value();
    }

    /** True when a failed callback may succeed later: network errors, timeouts, 408/425/429/5xx. */
    public boolean worthRedelivering(CallbackDelivery delivery) {
        return delivery.status() == CallbackDelivery.Status.FAILED && (delivery.lastHttpStatus() == null
                || retries.onStatus(delivery.lastHttpStatus()) == CallbackRetryPolicy.Verdict.RETRY);
    }

    private CallbackDelivery deliver(URI uri, String messageId, String body) {
        String key = secret.value();
        Integer lastStatus = null;
        String lastError = null;
        Retry retry = retries.attempts().start();
        while (true) {
            int attempt = retry.attempt();
            try {
                int status = http.send(request(uri, messageId, body, key), HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                CallbackRetryPolicy.Verdict verdict = retries.onStatus(status);
                if (verdict == CallbackRetryPolicy.Verdict.DELIVERED) {
                    return CallbackDelivery.delivered(attempt, status);
                }
                lastStatus = status;
                lastError = "receiver answered HTTP " + status;
                if (verdict == CallbackRetryPolicy.Verdict.GIVE_UP) {
                    return CallbackDelivery.failed(attempt, status, lastError);
                }
            } catch (IOException e) {
                lastStatus = null;
                lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return CallbackDelivery.failed(attempt, lastStatus, "interrupted");
            }
            if (!retry.another()) {
                return CallbackDelivery.failed(attempt, lastStatus, lastError);
            }
        }
    }

    private HttpRequest request(URI uri, String messageId, String body, String secretValue) {
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", USER_AGENT)
                .header(CallbackSignature.ID_HEADER, messageId)
                .header(CallbackSignature.TIMESTAMP_HEADER, Long.toString(timestamp))
                .header(CallbackSignature.SIGNATURE_HEADER, CallbackSignature.sign(CallbackKey.of(secretValue),
                        messageId, timestamp, body));
        if (legacySignature) {
            request.header(LegacyCallbackSignature.TIMESTAMP_HEADER, Long.toString(timestamp))
                    .header(LegacyCallbackSignature.SIGNATURE_HEADER,
                            LegacyCallbackSignature.sign(secretValue, timestamp, body));
        }
        return request.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
    }
}
