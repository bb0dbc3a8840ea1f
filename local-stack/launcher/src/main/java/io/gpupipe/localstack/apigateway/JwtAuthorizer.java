package io.gpupipe.localstack.apigateway;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.gpupipe.model.JobJson;
import java.text.ParseException;
import java.time.Clock;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * API Gateway's JWT authorizer, as "Control access to HTTP APIs with JWT authorizers in API Gateway" (API Gateway
 * developer guide) describes it: the token from the {@code Authorization} header, with or without {@code Bearer };
 * an RSA signature by a key of the JWKS whose {@code kid} the header names; {@code iss} equal to the configured
 * issuer; {@code aud} one of the audiences ({@code client_id} only when there is no {@code aud}); {@code exp} after
 * now; {@code nbf} and {@code iat}, when present, not after now. A request without a token, or with one that fails
 * any step, is refused (the facade answers 401 {@code {"message":"Unauthorized"}}). The claims of an accepted token
 * become {@code requestContext.authorizer.jwt.claims}, every value a string as API Gateway passes them.
 */
public final class JwtAuthorizer {
    private static final String BEARER = "bearer ";
    private static final Set<JWSAlgorithm> RSA = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512);

    private final JWKSet keys;
    private final String issuer;
    private final Set<String> audiences;
    private final Clock clock;

    public JwtAuthorizer(JWKSet keys, String issuer, Set<String> audiences, Clock clock) {
        this.keys = keys.toPublicJWKSet();
        this.issuer = issuer;
        this.audiences = Set.copyOf(audiences);
        this.clock = clock;
    }

    /** The claims of the caller whose {@code Authorization} header value this is, or empty: refused. */
    public Optional<Map<String, String>> authorize(String authorization) {
        if (authorization == null || authorization.isBlank()) {
            return Optional.empty();
        }
        String token = authorization.strip();
        if (token.toLowerCase(Locale.ROOT).startsWith(BEARER)) {
            token = token.substring(BEARER.length()).strip();
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            if (!RSA.contains(jwt.getHeader().getAlgorithm()) || !signedByOurKey(jwt)) {
                return Optional.empty();
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            return accepted(claims) ? Optional.of(asStrings(claims)) : Optional.empty();
        } catch (ParseException | JOSEException e) {
            return Optional.empty();
        }
    }

    private boolean signedByOurKey(SignedJWT jwt) throws JOSEException {
        String kid = jwt.getHeader().getKeyID();
        JWK key = kid == null ? null : keys.getKeyByKeyId(kid);
        return key instanceof RSAKey rsa && jwt.verify(new RSASSAVerifier(rsa));
    }

    private boolean accepted(JWTClaimsSet claims) throws ParseException {
        Date now = Date.from(clock.instant());
        List<String> aud = claims.getAudience();
        boolean audienceOk = aud.isEmpty() ? audiences.contains(claims.getStringClaim("client_id"))
                : aud.stream().anyMatch(audiences::contains);
        return issuer.equals(claims.getIssuer()) && audienceOk
                && claims.getExpirationTime() != null && claims.getExpirationTime().after(now)
                && (claims.getNotBeforeTime() == null || !claims.getNotBeforeTime().after(now))
                && (claims.getIssueTime() == null || !claims.getIssueTime().after(now));
    }

    /** Every claim as a string: text as is, dates as epoch seconds, anything else as its JSON. */
    private static Map<String, String> asStrings(JWTClaimsSet claims) {
        Map<String, String> strings = new LinkedHashMap<>();
        claims.getClaims().forEach((name, value) -> {
            if (value instanceof String text) {
                strings.put(name, text);
            } else if (value instanceof Date date) {
                strings.put(name, Long.toString(date.toInstant().getEpochSecond()));
            } else if (value instanceof List<?> list && list.size() == 1 && list.get(0) instanceof String only) {
                strings.put(name, only);
            } else if (value != null) {
                strings.put(name, JobJson.write(JobJson.mapper().valueToTree(value)));
            }
        });
        return strings;
    }
}
