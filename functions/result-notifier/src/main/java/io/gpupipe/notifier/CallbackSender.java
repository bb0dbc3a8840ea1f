package io.gpupipe.notifier;

import io.gpupipe.notifier.domain.CallbackDelivery;
import io.gpupipe.model.notify.CallbackKey;
import io.gpupipe.notifier.domain.CallbackRetryPolicy;
import io.gpupipe.model.notify.CallbackSignature;
import io.gpupipe.model.notify.CallbackTargetPolicy;
import io.gpupipe.model.notify.HostResolver;
import io.gpupipe.model.notify.LegacyCallbackSignature;
import io.gpupipe.model.retry.RetryPolicy.Retry;
import io.gpupipe.model.retry.RetryPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;

/**
 * POSTs a signed result event to a job's callback URL: checks the target ({@link CallbackTargetPolicy}), then tries
 * over a client pinned to the checked addresses ({@link PinnedCallbackClient}: no second DNS look-up, redirects never
 * followed), each attempt with connect and response timeouts and cancelled at a hard deadline. A delivery from the
 * callback queue (the first one and every retry) tries once within {@code redelivery-attempt-timeout}; only without a
 * queue configured is a callback sent within the result's invocation, up to {@code max-attempts} times, pausing as
 * {@link CallbackRetryPolicy} says. Attempts and pauses follow the one retry loop
 * ({@link RetryPolicy}), unit-tested in shared-model. Signed the Standard Webhooks way ({@link CallbackSignature}): every attempt carries the same {@code webhook-id} (the caller's,
 * stable across redeliveries too) and is signed afresh, so its timestamp is current; the deprecated
 * {@code X-Gpupipe-Signature} pair is added while {@code callback.legacy-signature} is on.
 */
@ApplicationScoped
public class CallbackSender {
    static final String USER_AGENT = "gpupipe-result-notifier/1";

    private final CallbackTargetPolicy targets;
    private final Attempts firstDelivery;
    private final Attempts redelivery;
    private final CallbackSecret secret;
    private final Clock clock;
    private final boolean legacySignature;

    @Inject
    CallbackSender(NotifierConfig config, CallbackSecret secret, Clock clock) {
        this(config, secret, clock, HostResolver.system());
    }

    /** {@code resolver} answers the target check's DNS look-ups (tests stand in for DNS with it). */
    CallbackSender(NotifierConfig config, CallbackSecret secret, Clock clock, HostResolver resolver) {
        NotifierConfig.Callback callback = config.callback();
        this.targets = new CallbackTargetPolicy(config.allowedCallbackHosts().orElse(Set.of()),
                resolver);
        this.firstDelivery = new Attempts(new CallbackRetryPolicy(callback.maxAttempts(), callback.initialBackoff(),
                callback.maxBackoff()), callback.connectTimeout(), callback.requestTimeout(),
                callback.connectTimeout().plus(callback.requestTimeout()));
        Duration redeliveryAttempt = callback.redeliveryAttemptTimeout();
        this.redelivery = new Attempts(new CallbackRetryPolicy(1, callback.initialBackoff(), callback.maxBackoff()),
                min(callback.connectTimeout(), redeliveryAttempt), redeliveryAttempt, redeliveryAttempt);
        this.secret = secret;
        this.clock = clock;
        this.legacySignature = callback.legacySignature();
    }

    /**
     * Sends {@code body} to {@code url} as event {@code messageId} ({@link CallbackSignature#messageId}), or refuses
     * to, within the caller's invocation (no callback queue configured, or a batch's event).
     *
     * @throws io.gpupipe.notifier.exception.NotifierAwsException only when the signing secret cannot be read (first
     *     use of a secret configured by ARN); nothing has been sent then
     */
    public CallbackDelivery send(String url, String messageId, String body) {
        return send(url, messageId, body, firstDelivery);
    }

    /**
     * A delivery from the callback queue: one attempt, cut at {@code callback.redelivery-attempt-timeout}
     * (the queue's growing delay is the back-off between attempts), so a batch of them fits the function's timeout
     * however slow the receivers are.
     */
    public CallbackDelivery redeliver(String url, String messageId, String body) {
        return send(url, messageId, body, redelivery);
    }

    private CallbackDelivery send(String url, String messageId, String body, Attempts attempts) {
        CallbackTargetPolicy.Verdict verdict = targets.check(url);
        if (verdict instanceof CallbackTargetPolicy.Verdict.Refused) {
            return CallbackDelivery.refused(((CallbackTargetPolicy.Verdict.Refused) verdict).reason());
        }
        return deliver((CallbackTargetPolicy.Verdict.Allowed) verdict, messageId, body, attempts);
    }

    /**
     * A refusal of {@code url} that needs no DNS look-up (scheme, user-info, an IP literal's range), or empty: the
     * check a result's own invocation makes before handing the callback to the queue, whose consumer checks the
     * resolved addresses at send.
     */
    public Optional<CallbackDelivery> refusedOnSight(String url) {
        return targets.checkWithoutResolving(url) instanceof CallbackTargetPolicy.Verdict.Refused refused
                ? Optional.of(CallbackDelivery.refused(refused.reason())) : Optional.empty();
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
                || firstDelivery.retries().onStatus(delivery.lastHttpStatus()) == CallbackRetryPolicy.Verdict.RETRY);
    }

    private CallbackDelivery deliver(CallbackTargetPolicy.Verdict.Allowed target, String messageId, String body,
                                     Attempts attempts) {
        String key = secret.value();
        try (CloseableHttpClient http = PinnedCallbackClient.of(target, attempts.connectTimeout(),
                attempts.responseTimeout())) {
            return deliver(http, target.uri(), messageId, body, key, attempts);
        } catch (IOException closing) {
            throw new UncheckedIOException("closing the callback client", closing);
        }
    }

    private CallbackDelivery deliver(CloseableHttpClient http, URI uri, String messageId, String body, String key,
                                     Attempts attempts) {
        CallbackRetryPolicy retries = attempts.retries();
        Integer lastStatus = null;
        String lastError = null;
        Retry retry = retries.attempts().start();
        while (true) {
            int attempt = retry.attempt();
            if (Thread.currentThread().isInterrupted()) {
                return CallbackDelivery.failed(attempt, lastStatus, "interrupted");
            }
            HttpPost request = request(uri, messageId, body, key);
            // a hard limit per attempt, however slowly the receiver trickles its answer (cancelling a finished
            // request does nothing)
            CompletableFuture.delayedExecutor(attempts.deadline().toMillis(), TimeUnit.MILLISECONDS)
                    .execute(request::cancel);
            // the response body is never read: closing the response drops the connection
            try (ClassicHttpResponse response = http.executeOpen(null, request, null)) {
                int status = response.getCode();
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
            }
            if (!retry.another()) {
                return CallbackDelivery.failed(attempt, lastStatus, lastError);
            }
        }
    }

    private HttpPost request(URI uri, String messageId, String body, String secretValue) {
        long timestamp = clock.instant().getEpochSecond();
        HttpPost request = new HttpPost(uri);
        request.setHeader("User-Agent", USER_AGENT);
        request.setHeader(CallbackSignature.ID_HEADER, messageId);
        request.setHeader(CallbackSignature.TIMESTAMP_HEADER, Long.toString(timestamp));
        request.setHeader(CallbackSignature.SIGNATURE_HEADER, CallbackSignature.sign(CallbackKey.of(secretValue),
                messageId, timestamp, body));
        if (legacySignature) {
            request.setHeader(LegacyCallbackSignature.TIMESTAMP_HEADER, Long.toString(timestamp));
            request.setHeader(LegacyCallbackSignature.SIGNATURE_HEADER,
                    LegacyCallbackSignature.sign(secretValue, timestamp, body));
        }
        request.setEntity(new ByteArrayEntity(body.getBytes(StandardCharsets.UTF_8),
                ContentType.create("application/json")));
        return request;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * How one delivery tries: its retry policy, and per attempt the connect and response timeouts and a hard
     * deadline after which the request is cancelled.
     */
    private record Attempts(CallbackRetryPolicy retries, Duration connectTimeout, Duration responseTimeout,
                            Duration deadline) {
    }
}
