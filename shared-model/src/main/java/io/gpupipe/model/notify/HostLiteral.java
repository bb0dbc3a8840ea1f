package io.gpupipe.model.notify;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the host of a URL names, read the way URL-parsing HTTP clients read it (WHATWG URL Standard, "IPv4 parser":
 * a host whose last label is a number is an IPv4 address in 1 to 4 parts, each decimal, octal with a leading 0, or
 * hex with 0x, the last part filling the remaining bytes; so {@code 2852039166}, {@code 0251.0376.0251.0376},
 * {@code 0xa9fea9fe} and {@code 169.254.43518} are all 169.254.169.254). Bracketed hosts are IPv6 literals (a zone
 * id is dropped: the address still decides). Anything else must be a plain DNS name.
 */
final class HostLiteral {
    private static final Pattern DNS_NAME = Pattern.compile("[a-z0-9](?:[a-z0-9-]*[a-z0-9])?"
            + "(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*");
    private static final Pattern CANONICAL_IPV4 = Pattern.compile(
            "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    private static final BigInteger BYTE = BigInteger.valueOf(256);

    private HostLiteral() {
    }

    /** What a URL's host is. */
    sealed interface Host {
        /** An IP literal in any form; {@code canonical} when written as a.b.c.d or as a bracketed IPv6 address. */
        record Address(InetAddress address, boolean canonical) implements Host {
        }

        /** A DNS name, to be resolved at send time. */
        record Name(String name) implements Host {
        }

        /** Neither: refused. */
        record Invalid(String reason) implements Host {
        }
    }

    /** Reads {@code rawHost} (lower-cased, a trailing dot dropped; brackets for IPv6). */
    static Host parse(String rawHost) {
        String host = rawHost.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            return ipv6(host.substring(1, host.length() - 1));
        }
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        if (host.isEmpty()) {
            return new Host.Invalid("callback URL has no host");
        }
        String[] parts = host.split("\\.", -1);
        if (endsInANumber(parts[parts.length - 1])) {
            return ipv4(host, parts);
        }
        if (host.contains(":")) {
            return ipv6(host);
        }
        return DNS_NAME.matcher(host).matches() ? new Host.Name(host)
                : new Host.Invalid("callback host '" + host + "' is neither a DNS name nor an IP address");
    }

    private static boolean endsInANumber(String last) {
        return !last.isEmpty() && (last.chars().allMatch(Character::isDigit) || last.startsWith("0x"));
    }

    private static Host ipv4(String host, String[] parts) {
        if (parts.length > 4) {
            return new Host.Invalid("callback host '" + host + "' ends in a number but is not an IPv4 address");
        }
        BigInteger value = BigInteger.ZERO;
        for (int i = 0; i < parts.length; i++) {
            BigInteger part = number(parts[i]);
            int bytesLeft = 4 - i;
            BigInteger limit = i == parts.length - 1 ? BYTE.pow(bytesLeft) : BYTE;
            if (part == null || part.compareTo(limit) >= 0) {
                return new Host.Invalid("callback host '" + host + "' ends in a number but is not an IPv4 address");
            }
            value = i == parts.length - 1 ? value.multiply(BYTE.pow(bytesLeft)).add(part)
                    : value.multiply(BYTE).add(part);
        }
        byte[] raw = new byte[4];
        byte[] digits = value.toByteArray();
        for (int i = 0; i < 4 && i < digits.length; i++) {
            raw[3 - i] = digits[digits.length - 1 - i];
        }
        try {
            return new Host.Address(InetAddress.getByAddress(raw), CANONICAL_IPV4.matcher(host).matches());
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 bytes are always an IPv4 address", e);
        }
    }

    /** A decimal, 0-prefixed octal or 0x-prefixed hex number; null when it is none of those. */
    private static BigInteger number(String text) {
        String digits = text;
        int radix = 10;
        if (text.startsWith("0x")) {
            digits = text.substring(2);
            radix = 16;
        } else if (text.length() > 1 && text.startsWith("0")) {
            digits = text.substring(1);
            radix = 8;
        }
        if (digits.isEmpty()) {
            return text.isEmpty() ? null : BigInteger.ZERO;
        }
        int base = radix;
        return digits.chars().allMatch(c -> Character.digit(c, base) >= 0) ? new BigInteger(digits, base) : null;
    }

    private static Host ipv6(String literal) {
        int zone = literal.indexOf('%');
        String address = zone >= 0 ? literal.substring(0, zone) : literal;
        if (address.isEmpty() || !address.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':'
                || c == '.')) {
            return new Host.Invalid("callback host '[" + literal + "]' is not an IPv6 address");
        }
        try {
            // a literal containing ':' is parsed, never looked up
            return new Host.Address(InetAddress.getByName(address), zone < 0);
        } catch (UnknownHostException e) {
            return new Host.Invalid("callback host '[" + literal + "]' is not an IPv6 address");
        }
    }
}
