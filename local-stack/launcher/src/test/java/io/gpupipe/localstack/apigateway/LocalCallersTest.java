package io.gpupipe.localstack.apigateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The local JWT authorizer against API Gateway's documented checks, without a stack. */
class LocalCallersTest {
    private final LocalCallers required = LocalCallers.generate(true, Clock.systemUTC());
    private final LocalCallers optional = LocalCallers.generate(false, Clock.systemUTC());

    @Test
    void decide_shouldPassTheClaims_whenTheTokenIsValidWithOrWithoutBearer() {
        String token = required.token(LocalCallers.CALLER_A);

        for (String header : new String[] {"Bearer " + token, "bearer " + token, token}) {
            LocalCallers.Decision decision = required.decide(header);
            assertThat(decision).as(header).isInstanceOf(LocalCallers.Decision.Caller.class);
            Map<String, String> claims = ((LocalCallers.Decision.Caller) decision).claims();
            assertThat(claims).containsEntry("iss", LocalCallers.ISSUER).containsEntry("sub", LocalCallers.CALLER_A)
                    .containsEntry("aud", LocalCallers.AUDIENCE).containsKey("exp");
        }
    }

    @Test
    void decide_shouldRefuse_whenTheTokenFailsAnyCheck() {
        Instant now = Instant.now();
        Map<String, String> refused = Map.of(
                "another key", optional.token(LocalCallers.CALLER_A),
                "expired", required.token(LocalCallers.CALLER_A, Map.of("exp", Date.from(now.minusSeconds(1)))),
                "not yet valid", required.token(LocalCallers.CALLER_A, Map.of("nbf", Date.from(now.plusSeconds(600)))),
                "issued in the future", required.token(LocalCallers.CALLER_A, Map.of("iat",
                        Date.from(now.plusSeconds(600)))),
                "another audience", required.token(LocalCallers.CALLER_A, Map.of("aud", "other")),
                "another issuer", required.token(LocalCallers.CALLER_A, Map.of("iss", "https://evil.example")),
                "tampered", tamper(required.token(LocalCallers.CALLER_A)),
                "not a JWT", "Bearer x.y.z");

        refused.forEach((why, token) -> assertThat(required.decide("Bearer " + token)).as(why)
                .isInstanceOf(LocalCallers.Decision.Unauthorized.class));
    }

    @Test
    void decide_shouldRefuseAMissingToken_onlyWhenOneIsRequired() {
        assertThat(required.decide(null)).isInstanceOf(LocalCallers.Decision.Unauthorized.class);
        assertThat(required.decide(" ")).isInstanceOf(LocalCallers.Decision.Unauthorized.class);
        assertThat(optional.decide(null)).isInstanceOf(LocalCallers.Decision.Anonymous.class);
        assertThat(optional.decide("Bearer nonsense")).as("a bad token is refused even where none is required")
                .isInstanceOf(LocalCallers.Decision.Unauthorized.class);
    }

    @Test
    void token_shouldExpireAfterItsLifetime() {
        Instant issued = Instant.parse("2026-01-01T00:00:00Z");
        LocalCallers then = LocalCallers.generate(true, Clock.fixed(issued, ZoneOffset.UTC));
        String token = then.token(LocalCallers.CALLER_B);

        assertThat(then.decide(token)).isInstanceOf(LocalCallers.Decision.Caller.class);
        LocalCallers later = new LocalCallers(then, Clock.fixed(issued.plus(LocalCallers.TOKEN_LIFETIME)
                .plus(Duration.ofSeconds(1)), ZoneOffset.UTC));
        assertThat(later.decide(token)).isInstanceOf(LocalCallers.Decision.Unauthorized.class);
    }

    /** The token with one character of its payload changed: the signature no longer matches. */
    private static String tamper(String token) {
        String[] parts = token.split("\\.");
        char[] payload = parts[1].toCharArray();
        payload[5] = payload[5] == 'A' ? 'B' : 'A';
        return parts[0] + "." + new String(payload) + "." + parts[2];
    }
}
