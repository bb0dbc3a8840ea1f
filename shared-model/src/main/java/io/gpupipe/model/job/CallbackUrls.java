package io.gpupipe.model.job;

import io.gpupipe.model.ErrorCodes;
import io.gpupipe.model.FieldError;
import io.gpupipe.model.FieldReader;
import io.gpupipe.model.notify.CallbackTargetPolicy;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.Set;

/**
 * The submission-time rule for a callback URL: length, syntax, and the notifier's own target policy judged without
 * DNS (names are judged by their resolved addresses when the callback is sent). Job requests, queue messages and
 * batch requests all use it.
 */
public final class CallbackUrls {
    public static final int MAX_CALLBACK_URL_CHARS = 2048;
    /**
     * The local stack's loopback names are allowed here, over http too; in a deployment the notifier refuses them
     * unless its allow-list names them.
     */
    private static final CallbackTargetPolicy SUBMISSION_TARGETS = new CallbackTargetPolicy(
            Set.of("localhost", "127.0.0.1", "::1"), host -> {
                throw new IllegalStateException("callback hosts are not resolved at submission");
            });

    private CallbackUrls() {
    }

    /** The error of {@code url} given as {@code field}; empty when the URL may be used. */
    public static Optional<FieldError> check(String field, String url) {
        if (url.length() > MAX_CALLBACK_URL_CHARS) {
            return Optional.of(new FieldError(field, ErrorCodes.TOO_LONG, field + " must be at most "
                    + MAX_CALLBACK_URL_CHARS + " characters"));
        }
        try {
            new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of(new FieldError(field, ErrorCodes.INVALID_FORMAT, field + " is not a valid URL"));
        }
        CallbackTargetPolicy.Verdict verdict = SUBMISSION_TARGETS.checkWithoutResolving(url);
        if (verdict instanceof CallbackTargetPolicy.Verdict.Refused refused) {
            return Optional.of(new FieldError(field, ErrorCodes.INVALID_VALUE, field + " is refused: "
                    + refused.reason() + " (an https URL to a public host is required; http only to localhost)"));
        }
        return Optional.empty();
    }

    /** A job's {@code callbackUrl}; a refused one is reported and, unless too long to echo, still returned. */
    static String read(FieldReader fields) {
        Optional<String> url = fields.string("callbackUrl");
        if (url.isEmpty()) {
            return null;
        }
        Optional<FieldError> refused = check("callbackUrl", url.get());
        refused.ifPresent(e -> fields.error(e.field(), e.code(), e.message()));
        return refused.map(e -> ErrorCodes.TOO_LONG.equals(e.code()) ? null : url.get()).orElse(url.get());
    }
}
