package io.gpupipe.router.internal;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent.RequestContext;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.router.RouterConfig.AuthMode;
import java.util.Map;
import java.util.Optional;

/**
 * The caller of a request, from the payload 2.0 event's {@code requestContext.authorizer}, which API Gateway fills
 * after its authorizer accepted the request ("Create AWS Lambda proxy integrations for HTTP APIs in API Gateway",
 * payload format 2.0): {@code iam} (accessKey, accountId, callerId, userArn, ...) for SigV4, {@code jwt.claims} (every
 * claim as a string) for the JWT authorizer. Nothing a client sends in headers or body is ever read: only API
 * Gateway writes the request context.
 */
public final class CallerIdentities {
    static final String ISSUER = "iss";
    static final String SUBJECT = "sub";

    private final AuthMode mode;
    private final Optional<String> tenantClaim;

    public CallerIdentities(AuthMode mode, Optional<String> tenantClaim) {
        this.mode = mode;
        this.tenantClaim = tenantClaim.filter(claim -> !claim.isBlank());
    }

    /** The caller, or empty when the mode requires an identity the context does not carry (answered 401). */
    public Optional<CallerIdentity> of(RequestContext context) {
        return switch (mode) {
            case IAM -> iam(context);
            case JWT -> jwt(context);
            case NONE -> iam(context).or(() -> jwt(context)).or(() -> Optional.of(CallerIdentity.ANONYMOUS));
        };
    }

    public AuthMode mode() {
        return mode;
    }

    private static Optional<CallerIdentity> iam(RequestContext context) {
        RequestContext.IAM iam = context == null || context.getAuthorizer() == null ? null
                : context.getAuthorizer().getIam();
        if (iam == null || (isBlank(iam.getUserArn()) && (isBlank(iam.getAccountId())
                || isBlank(iam.getCallerId())))) {
            return Optional.empty();
        }
        return Optional.of(new CallerIdentity.Iam(iam.getUserArn(), iam.getAccountId(), iam.getCallerId()));
    }

    private Optional<CallerIdentity> jwt(RequestContext context) {
        Map<String, String> claims = context == null || context.getAuthorizer() == null
                || context.getAuthorizer().getJwt() == null ? null : context.getAuthorizer().getJwt().getClaims();
        if (claims == null || isBlank(claims.get(ISSUER))) {
            return Optional.empty();
        }
        String issuer = claims.get(ISSUER);
        Optional<String> tenant = tenantClaim.map(claims::get).filter(value -> !isBlank(value));
        if (tenant.isPresent()) {
            return Optional.of(new CallerIdentity.JwtTenant(issuer, tenantClaim.get(), tenant.get()));
        }
        return isBlank(claims.get(SUBJECT)) ? Optional.empty()
                : Optional.of(new CallerIdentity.Jwt(issuer, claims.get(SUBJECT)));
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }
}
