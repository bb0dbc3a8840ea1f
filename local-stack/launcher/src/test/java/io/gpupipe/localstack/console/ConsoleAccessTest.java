package io.gpupipe.localstack.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpupipe.localstack.apigateway.LocalCallers;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.OwnerIds;
import io.gpupipe.model.seal.DeploymentKey;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** Who the console answers: this machine, under a local name with the API's port, and with a token when required. */
class ConsoleAccessTest {
    private static final int PORT = 8080;
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final LocalCallers OPTIONAL = LocalCallers.generate(false, Clock.systemUTC());
    private static final LocalCallers REQUIRED = LocalCallers.generate(true, Clock.systemUTC());
    /** Owner ids as a stack's router derives them, keyed with its deployment key. */
    private static final OwnerIds OWNER_IDS = DeploymentKey.of(DeploymentKey.generateText()).ownerIds();

    @Test
    void check_shouldServeEveryLocalNameOfThePort_andRefuseAnyOtherHostWith421() {
        ConsoleAccess access = new ConsoleAccess(PORT, OPTIONAL, OWNER_IDS);
        for (String host : new String[] {"localhost:8080", "LOCALHOST:8080", "127.0.0.1:8080", "[::1]:8080"}) {
            assertThat(access.check(LOOPBACK, host, null, true)).as(host)
                    .isInstanceOf(ConsoleAccess.Verdict.Everyone.class);
        }
        for (String host : new String[] {"evil.example", "evil.example:8080", "localhost", "localhost:8081",
                "127.0.0.1.evil.example:8080", "localhost.evil.example:8080", "[::1]", "::1:8080", "", "localhost:"}) {
            ConsoleAccess.Verdict verdict = access.check(LOOPBACK, host, null, false);
            assertThat(verdict).as(host).isInstanceOf(ConsoleAccess.Verdict.Refused.class);
            assertThat(((ConsoleAccess.Verdict.Refused) verdict).status()).as(host).isEqualTo(421);
            assertThat(((ConsoleAccess.Verdict.Refused) verdict).field()).isEqualTo("Host");
        }
        assertThat(access.check(LOOPBACK, null, null, false)).isInstanceOf(ConsoleAccess.Verdict.Refused.class);
        // a browser leaves out port 80
        assertThat(new ConsoleAccess(80, OPTIONAL, OWNER_IDS).check(LOOPBACK, "localhost", null, true))
                .isInstanceOf(ConsoleAccess.Verdict.Everyone.class);
    }

    @Test
    void check_shouldRefuseAConnectionFromAnotherMachine() throws UnknownHostException {
        ConsoleAccess.Verdict verdict = new ConsoleAccess(PORT, OPTIONAL, OWNER_IDS).check(
                InetAddress.getByName("192.0.2.7"), "localhost:8080", null, false);
        assertThat(verdict).isInstanceOf(ConsoleAccess.Verdict.Refused.class);
        assertThat(((ConsoleAccess.Verdict.Refused) verdict).status()).isEqualTo(403);
    }

    @Test
    void check_withATokenRequired_shouldScopeCallsToTheTokensCaller_andRefuseCallsWithoutOne() {
        ConsoleAccess access = new ConsoleAccess(PORT, REQUIRED, OWNER_IDS);
        String host = "localhost:8080";
        assertThat(access.check(LOOPBACK, host, "Bearer " + REQUIRED.token(LocalCallers.CALLER_B), true))
                .isEqualTo(new ConsoleAccess.Verdict.Caller(OWNER_IDS.of(new CallerIdentity.Jwt(LocalCallers.ISSUER,
                        LocalCallers.CALLER_B))));
        for (String authorization : new String[] {null, "", "Bearer nonsense",
                "Bearer " + OPTIONAL.token(LocalCallers.CALLER_A)}) {
            ConsoleAccess.Verdict verdict = access.check(LOOPBACK, host, authorization, true);
            assertThat(verdict).as(String.valueOf(authorization)).isInstanceOf(ConsoleAccess.Verdict.Refused.class);
            assertThat(((ConsoleAccess.Verdict.Refused) verdict).status()).isEqualTo(401);
        }
        // the page's files hold no caller's data: served, so that it can ask for the token
        assertThat(access.check(LOOPBACK, host, null, false)).isInstanceOf(ConsoleAccess.Verdict.Everyone.class);
    }
}
