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
 * Where a callback may go (SSRF guard), one policy for submission ({@link #checkWithoutResolving}) and send
 * ({@link #check}). A URL is allowed when its host is on the allow-list (exact, case-insensitive
 * match; http is then accepted too, as for the local stack's {@code localhost}), or when it is https, carries no
 * user-info, and its host is an IP literal ({@link HostLiteral}: every form a URL parser accepts) naming a public
 * unicast address, or a DNS name every address of which (at send) is public unicast: loopback, private,
 * link-local (e.g. 169.254.169.254), unique-local, multicast, unspecified and IPv4-in-IPv6 forms of those are
 * refused (see {@link AddressRanges}). Every resolved address is checked, so one private A record among public
 * ones refuses the host. The caller must not follow redirects, or a public host could bounce the request inward.
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

    /** Checks {@code url} at send time: as at submission, then resolves a DNS name and checks every address. */
    public Verdict check(String url) {
        return check(url, true);
    }

    /**
     * Checks {@code url} at submission, without DNS: the same rules as {@link #check}, so an IP literal in any form
     * (IPv4-mapped IPv6, decimal, octal, hex, short forms, zoned IPv6) is judged by the address it names. A DNS name
     * passes here and is judged by its resolved addresses at send time.
     */
    public Verdict checkWithoutResolving(String url) {
        return check(url, false);
    }

    private Verdict check(String url, boolean resolve) {
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
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            return new Verdict.Refused("callback URL has no host");
        }
        if (authority.contains("@")) {
            return new Verdict.Refused("callback URL must not carry user-info");
        }
        // java.net.URI leaves getHost() null for numeric forms like 0xa9fea9fe: read the host from the authority
        String rawHost = uri.getHost() != null ? uri.getHost() : hostOfAuthority(authority);
        String host = normalizeHost(rawHost);
        if (allowedHosts.contains(host)) {
            return new Verdict.Allowed(uri, true, List.of());
        }
        if (!"https".equals(scheme)) {
            return new Verdict.Refused("callback URL must be https unless its host is allow-listed");
        }
        HostLiteral.Host parsed = HostLiteral.parse(rawHost);
        if (parsed instanceof HostLiteral.Host.Invalid invalid) {
            return new Verdict.Refused(invalid.reason());
        }
        if (parsed instanceof HostLiteral.Host.Address literal) {
            return checkLiteral(uri, rawHost, literal);
        }
        return resolve ? checkAddresses(uri, host) : new Verdict.Allowed(uri, false, List.of());
    }

    private static Verdict checkLiteral(URI uri, String rawHost, HostLiteral.Host.Address literal) {
        InetAddress address = literal.address();
        Optional<String> refusal = AddressRanges.refusal(address);
        if (refusal.isPresent()) {
            return new Verdict.Refused("callback host " + rawHost + " is " + address.getHostAddress() + ": "
                    + refusal.get());
        }
        if (!literal.canonical()) {
            return new Verdict.Refused("callback host " + rawHost + " is " + address.getHostAddress()
                    + " written in a non-standard form; write it as " + address.getHostAddress());
        }
        return new Verdict.Allowed(uri, false, List.of(address));
    }

    private static String hostOfAuthority(String authority) {
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            return close < 0 ? authority : authority.substring(0, close + 1);
        }
        int colon = authority.lastIndexOf(':');
        return colon < 0 ? authority : authority.substring(0, colon);
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
