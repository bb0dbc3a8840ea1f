package io.gpupipe.router.internal;

import io.gpupipe.model.FieldError;
import io.gpupipe.router.ApiErrorCodes;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks a request before its JSON is read: the content type must be JSON (415) and the body at most the configured
 * size (413), well below what API Gateway (10 MB) and a synchronous Lambda invocation (6 MB, the event's whole JSON)
 * let through ("Quotas for configuring and running an HTTP API in API Gateway"; "Lambda quotas"). A request without a
 * Content-Type is read as JSON (a malformed body then gets 400).
 */
public final class RequestGate {
    public static final int UNSUPPORTED_MEDIA_TYPE = 415;
    public static final int PAYLOAD_TOO_LARGE = 413;

    private final int maxBodyBytes;

    public RequestGate(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Why the request is refused (HTTP status and error), or empty when it may be parsed. */
    public Optional<Refusal> check(String contentType, int bodyBytes) {
        if (!isJson(contentType)) {
            return Optional.of(new Refusal(UNSUPPORTED_MEDIA_TYPE, new FieldError("Content-Type",
                    ApiErrorCodes.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be application/json, got "
                    + contentType.strip())));
        }
        return checkSize(bodyBytes);
    }

    /** 413 when a body (of a route that reads it or not) is larger than the limit; empty otherwise. */
    public Optional<Refusal> checkSize(int bodyBytes) {
        if (bodyBytes > maxBodyBytes) {
            return Optional.of(new Refusal(PAYLOAD_TOO_LARGE, new FieldError("body", ApiErrorCodes.PAYLOAD_TOO_LARGE,
                    "request body must be at most " + maxBodyBytes + " bytes, got " + bodyBytes)));
        }
        return Optional.empty();
    }

    /** True for a missing content type, application/json and application/*+json, with any parameters. */
    static boolean isJson(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        int semicolon = contentType.indexOf(';');
        String mediaType = (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
                .strip().toLowerCase(Locale.ROOT);
        return "application/json".equals(mediaType)
                || (mediaType.startsWith("application/") && mediaType.endsWith("+json"));
    }

    /** A refused request: the HTTP status to answer and the error to report. */
    public record Refusal(int status, FieldError error) {
    }
}
