package io.gpupipe.model.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CallbackTargetPolicyTest {
    /** Names resolve from this table; IP literals are parsed by the JDK (no DNS involved). */
    private static final Map<String, String[]> DNS = Map.of(
            "hooks.example.com", new String[] {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
            "rebind.example.com", new String[] {"93.184.216.34", "10.0.0.7"},
            "metadata.example.com", new String[] {"169.254.169.254"},
            "v6-internal.example.com", new String[] {"fd00:ec2::254"});

    private static final HostResolver RESOLVER = host -> {
        String[] addresses = DNS.get(host);
        if (addresses != null) {
            InetAddress[] result = new InetAddress[addresses.length];
            for (int i = 0; i < addresses.length; i++) {
                result[i] = InetAddress.getByName(addresses[i]);
            }
            return result;
        }
        if (host.matches("[0-9.]+") || host.contains(":")) {
            return InetAddress.getAllByName(host);
        }
        throw new UnknownHostException(host);
    };

    private final CallbackTargetPolicy policy = new CallbackTargetPolicy(Set.of(), RESOLVER);

    @Test
    void check_shouldAllow_whenHttpsHostResolvesToPublicAddressesOnly() {
        // when
        CallbackTargetPolicy.Verdict verdict = policy.check("https://hooks.example.com/gpupipe?x=1");

        // then
        assertThat(verdict).isInstanceOf(CallbackTargetPolicy.Verdict.Allowed.class);
        assertThat(((CallbackTargetPolicy.Verdict.Allowed) verdict).addresses()).hasSize(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://169.254.169.254/latest/meta-data/",
        "https://127.0.0.1/hook",
        "https://127.1.2.3/hook",
        "https://10.1.2.3/hook",
        "https://172.16.0.1/hook",
        "https://172.31.255.255/hook",
        "https://192.168.1.1/hook",
        "https://100.64.0.1/hook",
        "https://0.0.0.0/hook",
        "https://224.0.0.1/hook",
        "https://255.255.255.255/hook",
        "https://[::1]/hook",
        "https://[::]/hook",
        "https://[fe80::1]/hook",
        "https://[fd00:ec2::254]/hook",
        "https://[fc00::1]/hook",
        "https://[ff02::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://[::ffff:169.254.169.254]/hook",
        "https://[::ffff:a9fe:a9fe]/hook",
        "https://[::10.0.0.1]/hook",
        "https://[64:ff9b::a9fe:a9fe]/hook",
        "https://[2002:c0a8:0101::1]/hook",
        "https://metadata.example.com/hook",
        "https://v6-internal.example.com/hook",
        "https://rebind.example.com/hook"
    })
    void check_shouldRefuse_whenTargetIsNotPublicUnicast(String url) {
        // when
        CallbackTargetPolicy.Verdict verdict = policy.check(url);

        // then
        assertThat(verdict).as(url).isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://2852039166/hook",
        "https://0251.0376.0251.0376/hook",
        "https://0xa9fea9fe/hook",
        "https://169.254.43518/hook",
        "https://169.16689662/hook",
        "https://[fe80::1%25eth0]/hook",
        "https://[::ffff:a9fe:a9fe]/hook",
        "https://127.1/hook",
        "https://0/hook"
    })
    void checkAndCheckWithoutResolving_shouldBothRefuse_whenLiteralIsNonPublicInAnyForm(String url) {
        // given: a resolver that would call these public, as a naive getaddrinfo-less lookup might
        CallbackTargetPolicy lenient = new CallbackTargetPolicy(Set.of(), host -> new InetAddress[] {
            InetAddress.getByName("93.184.216.34")});

        // when, then: the literal decides, at submission and at send alike
        assertThat(lenient.checkWithoutResolving(url)).as(url).isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
        assertThat(lenient.check(url)).as(url).isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
        assertThat(((CallbackTargetPolicy.Verdict.Refused) lenient.check(url)).reason()).as(url)
                .containsAnyOf("link-local", "loopback", "unspecified");
    }

    @Test
    void checkWithoutResolving_shouldAllowAName_whenItWouldOnlyBeJudgedAtSend() {
        // given
        CallbackTargetPolicy noDns = new CallbackTargetPolicy(Set.of(), host -> {
            throw new AssertionError("no DNS at submission");
        });

        // when, then
        assertThat(noDns.checkWithoutResolving("https://metadata.example.com/hook"))
                .isInstanceOf(CallbackTargetPolicy.Verdict.Allowed.class);
        assertThat(policy.check("https://metadata.example.com/hook"))
                .isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
    }

    @Test
    void check_shouldNameTheAddress_whenOneOfSeveralRecordsIsPrivate() {
        // when
        CallbackTargetPolicy.Verdict verdict = policy.check("https://rebind.example.com/hook");

        // then
        assertThat(((CallbackTargetPolicy.Verdict.Refused) verdict).reason()).contains("10.0.0.7")
                .contains("private");
    }

    @Test
    void check_shouldRefuseMappedAddress_whenGivenAsInet6Address() throws UnknownHostException {
        // given: a resolver that hands back the IPv4-mapped form as a real Inet6Address
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 169, (byte) 254,
            (byte) 169, (byte) 254};
        InetAddress address = Inet6Address.getByAddress("mapped.example.com", mapped, -1);
        CallbackTargetPolicy mappedPolicy = new CallbackTargetPolicy(Set.of(), host -> new InetAddress[] {address});

        // when
        CallbackTargetPolicy.Verdict verdict = mappedPolicy.check("https://mapped.example.com/hook");

        // then
        assertThat(verdict).isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
        assertThat(((CallbackTargetPolicy.Verdict.Refused) verdict).reason()).contains("link-local");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "http://hooks.example.com/hook",
        "ftp://hooks.example.com/hook",
        "file:///etc/passwd",
        "https:///no-host",
        "https://user:secret@hooks.example.com/hook",
        "not a url",
        ""
    })
    void check_shouldRefuse_whenUrlIsNotAPlainHttpsUrl(String url) {
        assertThat(policy.check(url)).as(url).isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
    }

    @Test
    void check_shouldRefuse_whenHostDoesNotResolve() {
        // when
        CallbackTargetPolicy.Verdict verdict = policy.check("https://nowhere.example.com/hook");

        // then
        assertThat(((CallbackTargetPolicy.Verdict.Refused) verdict).reason()).contains("does not resolve");
    }

    @Test
    void check_shouldAllowHttpLocalhost_whenAllowListed() {
        // given
        CallbackTargetPolicy local = new CallbackTargetPolicy(Set.of("LOCALHOST", "[::1]"), host -> {
            throw new AssertionError("allow-listed hosts are not resolved");
        });

        // when, then
        assertThat(local.check("http://localhost:8080/hook")).isInstanceOf(
                CallbackTargetPolicy.Verdict.Allowed.class);
        assertThat(local.check("http://[::1]:8080/hook")).isInstanceOf(CallbackTargetPolicy.Verdict.Allowed.class);
        assertThat(((CallbackTargetPolicy.Verdict.Allowed) local.check("http://localhost/")).allowListed())
                .isTrue();
    }

    @Test
    void check_shouldStillRefuseLoopback_whenOnlyAnotherHostIsAllowListed() {
        // given
        CallbackTargetPolicy local = new CallbackTargetPolicy(Set.of("localhost"), RESOLVER);

        // when, then
        assertThat(local.check("https://127.0.0.1/hook")).isInstanceOf(CallbackTargetPolicy.Verdict.Refused.class);
    }
}
