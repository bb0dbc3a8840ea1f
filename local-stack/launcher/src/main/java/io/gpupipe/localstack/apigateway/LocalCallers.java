package io.gpupipe.localstack.apigateway;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.gpupipe.localaws.LocalAws;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.Owner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The local stack's identity provider: an RSA key pair made at each start, its public JWKS, and bearer tokens for
 * two callers ({@code caller-a}, {@code caller-b}) that the facade's {@link JwtAuthorizer} accepts, and the
 * temporary credentials of three assumed-role sessions ({@link LocalIamPrincipals}) that its {@link SigV4Authorizer}
 * accepts, so that one can act as different callers of the API on one machine (docs/security.md). {@code required} is whether a request
 * without a token is refused (as a deployed API with an authorizer does) or passed on as the deployment-less
 * anonymous caller (the local default, which keeps plain {@code curl} working).
 */
public final class LocalCallers {
    public static final String ISSUER = "https://gpupipe.localhost/issuer";
    public static final String AUDIENCE = "gpupipe";
    public static final String CALLER_A = "caller-a";
    public static final String CALLER_B = "caller-b";
    /** Long enough for a working day with one stack; the keys die with the stack anyway. */
    static final Duration TOKEN_LIFETIME = Duration.ofHours(24);

    private final RSAKey key;
    private final JwtAuthorizer authorizer;
    private final boolean required;
    private final Clock clock;
    private final LocalIamPrincipals principals;
    private final SigV4Authorizer sigV4;

    private LocalCallers(RSAKey key, LocalIamPrincipals principals, boolean required, Clock clock) {
        this.key = key;
        this.required = required;
        this.clock = clock;
        this.authorizer = new JwtAuthorizer(new JWKSet(key), ISSUER, Set.of(AUDIENCE), clock);
        this.principals = principals;
        this.sigV4 = new SigV4Authorizer(principals, LocalAws.REGION, clock);
    }

    /** The same keys and requirement, with time read from {@code clock} (tests of expiry). */
    LocalCallers(LocalCallers keys, Clock clock) {
        this(keys.key, keys.principals, keys.required, clock);
    }

    /** A new key pair; {@code required}: whether requests without a token are refused. */
    public static LocalCallers generate(boolean required, Clock clock) {
        try {
            RSAKey key = new RSAKeyGenerator(2048).keyID(UUID.randomUUID().toString()).keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.RS256).generate();
            return new LocalCallers(key, LocalIamPrincipals.generate(), required, clock);
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make an RSA key pair: " + e.getMessage(), e);
        }
    }

    /** What the facade decides for a request's {@code Authorization} header. */
    public sealed interface Decision {
        /** No token, and none required: the request goes on without an authorizer context. */
        record Anonymous() implements Decision {
        }

        /** A valid token: its claims go into {@code requestContext.authorizer.jwt}. */
        record Caller(Map<String, String> claims) implements Decision {
        }

        /** A bad token, or none where one is required: 401. */
        record Unauthorized() implements Decision {
        }
    }

    /** The decision for a request whose {@code Authorization} header is {@code authorization} (null: none). */
    public Decision decide(String authorization) {
        if ((authorization == null || authorization.isBlank()) && !required) {
            return new Decision.Anonymous();
        }
        Optional<Map<String, String>> claims = authorizer.authorize(authorization);
        return claims.<Decision>map(Decision.Caller::new).orElseGet(Decision.Unauthorized::new);
    }

    /** The caller the router makes of a token's claims (issuer and subject); null for a token without a subject. */
    public static CallerIdentity identity(Map<String, String> claims) {
        String issuer = claims.get("iss");
        String subject = claims.get("sub");
        return issuer == null || subject == null || subject.isBlank() ? null : new CallerIdentity.Jwt(issuer, subject);
    }

    public boolean required() {
        return required;
    }

    /** The assumed-role sessions whose SigV4 signatures the API accepts. */
    public LocalIamPrincipals principals() {
        return principals;
    }

    /** API Gateway's IAM authorizer over {@link #principals()}, in the stack's region. */
    public SigV4Authorizer sigV4() {
        return sigV4;
    }

    /** A bearer token for {@code subject}, valid for {@link #TOKEN_LIFETIME} from now. */
    public String token(String subject) {
        return token(subject, Map.of());
    }

    /** A bearer token for {@code subject} with extra claims (e.g. a tenant claim). */
    public String token(String subject, Map<String, Object> extraClaims) {
        Instant now = clock.instant();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER).subject(subject).audience(AUDIENCE)
                .issueTime(Date.from(now)).notBeforeTime(Date.from(now)).expirationTime(Date.from(now.plus(
                        TOKEN_LIFETIME))).jwtID(UUID.randomUUID().toString());
        extraClaims.forEach(claims::claim);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(JOSEObjectType.JWT).build(), claims.build());
        try {
            jwt.sign(new RSASSASigner(key));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    /** The public JWKS (what an issuer serves at its {@code jwks_uri}). */
    public String jwks() {
        return new JWKSet(key).toPublicJWKSet().toString();
    }

    /** Writes the public JWKS to {@code file}, for tools that check the tokens themselves. */
    public Path writeJwks(Path file) throws IOException {
        Files.writeString(file, jwks(), StandardCharsets.UTF_8);
        return file;
    }

    /** The two callers' tokens, by subject, in the order the banner prints them. */
    public List<Map.Entry<String, String>> callerTokens() {
        return List.of(Map.entry(CALLER_A, token(CALLER_A)), Map.entry(CALLER_B, token(CALLER_B)));
    }
}
