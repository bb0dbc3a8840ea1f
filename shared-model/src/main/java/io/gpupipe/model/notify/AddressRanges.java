package io.gpupipe.model.notify;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * Which addresses a callback must never reach: anything that is not a public unicast address. IPv6 forms that
 * embed an IPv4 address (IPv4-mapped {@code ::ffff:a.b.c.d}, IPv4-compatible {@code ::a.b.c.d}, NAT64
 * {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}) are judged by the embedded address.
 */
final class AddressRanges {
    private AddressRanges() {
    }

    /** Why {@code address} is refused, or empty when it is a public unicast address. */
    static Optional<String> refusal(InetAddress address) {
        if (address instanceof Inet6Address) {
            return refusal6((Inet6Address) address);
        }
        return refusal4(address.getAddress());
    }

    private static Optional<String> refusal4(byte[] b) {
        int a0 = b[0] & 0xff;
        int a1 = b[1] & 0xff;
        if (a0 == 0) {
            return Optional.of("unspecified / this-network (0.0.0.0/8)");
        }
        if (a0 == 127) {
            return Optional.of("loopback (127.0.0.0/8)");
        }
        if (a0 == 10 || (a0 == 172 && a1 >= 16 && a1 <= 31) || (a0 == 192 && a1 == 168)) {
            return Optional.of("private (RFC 1918)");
        }
        if (a0 == 169 && a1 == 254) {
            return Optional.of("link-local (169.254.0.0/16, instance metadata)");
        }
        if (a0 == 100 && a1 >= 64 && a1 <= 127) {
            return Optional.of("shared address space (100.64.0.0/10)");
        }
        if (a0 == 192 && a1 == 0 && (b[2] & 0xff) == 0) {
            return Optional.of("IETF protocol assignments (192.0.0.0/24)");
        }
        if (a0 == 198 && (a1 == 18 || a1 == 19)) {
            return Optional.of("benchmarking (198.18.0.0/15)");
        }
        if (a0 >= 224 && a0 <= 239) {
            return Optional.of("multicast (224.0.0.0/4)");
        }
        if (a0 >= 240) {
            return Optional.of("reserved or broadcast (240.0.0.0/4)");
        }
        return Optional.empty();
    }

    private static Optional<String> refusal6(Inet6Address address) {
        byte[] b = address.getAddress();
        if (isZero(b, 0, 16)) {
            return Optional.of("unspecified (::)");
        }
        if (isZero(b, 0, 15) && b[15] == 1) {
            return Optional.of("loopback (::1)");
        }
        Optional<byte[]> embedded = embeddedIpv4(b);
        if (embedded.isPresent()) {
            return refusal4(embedded.get()).map(reason -> "IPv4 embedded in IPv6, " + reason);
        }
        int b0 = b[0] & 0xff;
        int b1 = b[1] & 0xff;
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
            return Optional.of("link-local (fe80::/10)");
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0xc0) {
            return Optional.of("site-local (fec0::/10)");
        }
        if ((b0 & 0xfe) == 0xfc) {
            return Optional.of("unique-local (fc00::/7, includes the fd00:ec2::254 metadata endpoint)");
        }
        if (b0 == 0xff) {
            return Optional.of("multicast (ff00::/8)");
        }
        return Optional.empty();
    }

    /** The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address. */
    private static Optional<byte[]> embeddedIpv4(byte[] b) {
        boolean mapped = isZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = isZero(b, 0, 12);
        boolean nat64 = b[0] == 0x00 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                && isZero(b, 4, 12);
        if (mapped || compatible || nat64) {
            return Optional.of(new byte[] {b[12], b[13], b[14], b[15]});
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return Optional.of(new byte[] {b[2], b[3], b[4], b[5]});
        }
        return Optional.empty();
    }

    private static boolean isZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
