package io.gpupipe.model.notify;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a callback may go (SSRF guard). A URL is allowed when its host is on the allow-list (exact, case-insensitive
 * match; http is then accepted too, as for the local stack's {@code localhost}), or when it is https, carries no
 * user-info, and every address its host resolves to is public unicast: loopback, private, link-local (e.g.
 * 169.254.169.254), unique-local, multicast, unspecified and IPv4-in-IPv6 forms of those are refused (see
 * {@link AddressRanges}). Every resolved address is checked, so one private A record among public ones refuses the
 * host. The caller must not follow redirects, or a public host could bounce the request inward.
 */
public final class CallbackTargetPolicy {
    private final Set<String> allowedHosts;
    private final HostResolver resolver;

    /** The result of checking one URL. */
    public sealed interface Verdict {
        /** The callback may be sent to {@code uri}; {@code allowListed} when no address check was made. */
        record Allowed(URI uri, boolean allowListed, List<InetAddress> addresses) implements Verdict {
            public Allowed {
                addresses = List.copyOf(addresses);
            }
        }

        /** The callback must not be sent; {@code reason} is safe to log. */
        record Refused(String reason) implements Verdict {
        }
    }

    public CallbackTargetPolicy(Set<String> allowedHosts, HostResolver resolver) {
        this.allowedHosts = allowedHosts.stream().map(CallbackTargetPolicy::normalizeHost)
                .collect(Collectors.toUnmodifiableSet());
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    /** Checks {@code url}; resolves its host through the resolver unless it is allow-listed. */
    public Verdict check(String url) {
        if (url == null || url.isBlank()) {
            return new Verdict.Refused("callback URL is empty");
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            return new Verdict.Refused("callback URL is not a valid URI");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!"https".equals(scheme) && !"http".equals(scheme)) {
            return new Verdict.Refused("callback URL scheme must be https, got '" + scheme + "'");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return new Verdict.Refused("callback URL has no host");
        }
        if (uri.getRawUserInfo() != null) {
            return new Verdict.Refused("callback URL must not carry user-info");
        }
        String host = normalizeHost(uri.getHost());
        if (allowedHosts.contains(host)) {
            return new Verdict.Allowed(uri, true, List.of());
        }
        if (!"https".equals(scheme)) {
            return new Verdict.Refused("callback URL must be https unless its host is allow-listed");
        }
        return checkAddresses(uri, host);
    }

    private Verdict checkAddresses(URI uri, String host) {
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            return new Verdict.Refused("callback host " + host + " does not resolve");
        }
        if (addresses == null || addresses.length == 0) {
            return new Verdict.Refused("callback host " + host + " has no address");
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = AddressRanges.refusal(address);
            if (refusal.isPresent()) {
                return new Verdict.Refused("callback host " + host + " resolves to " + address.getHostAddress()
                        + ": " + refusal.get());
            }
        }
        return new Verdict.Allowed(uri, false, List.of(addresses));
    }

    private static String normalizeHost(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
