package io.gpupipe.router.internal;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Builds the {@code statusUrl} of a job: the configured public base URL when there is one, otherwise the origin the
 * client used ({@code X-Forwarded-Proto} and {@code Host}, as API Gateway sets them), otherwise a relative path.
 */
public final class StatusUrls {
    public static final String JOBS_PATH = "/v1/jobs/";

    private final Optional<URI> publicBaseUrl;

    public StatusUrls(Optional<URI> publicBaseUrl) {
        this.publicBaseUrl = publicBaseUrl;
    }

    public String of(String requestId, String host, String forwardedProto) {
        if (publicBaseUrl.isPresent()) {
            String base = publicBaseUrl.get().toString();
            return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + JOBS_PATH + requestId;
        }
        if (host == null || host.isBlank() || host.chars().anyMatch(c -> c == '/' || Character.isWhitespace(c))) {
            return JOBS_PATH + requestId;
        }
        return scheme(forwardedProto) + "://" + host.strip() + JOBS_PATH + requestId;
    }

    private static String scheme(String forwardedProto) {
        if (forwardedProto == null || forwardedProto.isBlank()) {
            return "http";
        }
        String first = forwardedProto.split(",")[0].strip().toLowerCase(Locale.ROOT);
        return "https".equals(first) ? "https" : "http";
    }
}
