package io.gpupipe.router;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent.RequestContext;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.IamCallerScope;
import io.gpupipe.router.RouterConfig.AuthMode;
import java.util.Map;
import java.util.Optional;

/**
 * The caller of a request, from the payload 2.0 event's {@code requestContext.authorizer}, which API Gateway fills
 * after its authorizer accepted the request ("Create AWS Lambda proxy integrations for HTTP APIs in API Gateway",
 * payload format 2.0): {@code iam} (accessKey, accountId, callerId, userArn, ...) for SigV4, {@code jwt.claims} (every
 * claim as a string) for the JWT authorizer. Nothing a client sends in headers or body is ever read: only API
 * Gateway writes the request context. An IAM principal is a caller as {@link IamCallerScope} says; a token is its
 * issuer's subject or tenant, and a context that names neither (a token without {@code sub}) is nobody (401), never
 * the anonymous caller, which only a request without any authorizer context is (mode {@code none}).
 */
public final class CallerIdentities {
    static final String ISSUER = "iss";
    static final String SUBJECT = "sub";

    private final AuthMode mode;
    private final Optional<String> tenantClaim;
    private final IamCallerScope iamScope;

    public CallerIdentities(AuthMode mode, Optional<String> tenantClaim, IamCallerScope iamScope) {
        this.mode = mode;
        this.tenantClaim = tenantClaim.filter(claim -> !claim.isBlank());
        this.iamScope = iamScope;
    }

    /** The caller, or empty when the mode requires an identity the context does not carry (answered 401). */
    public Optional<CallerIdentity> of(RequestContext context) {
        return switch (mode) {
            case IAM -> iam(context);
            case JWT -> jwt(context);
            case ANY -> iam(context).or(() -> jwt(context));
            case NONE -> hasAuthorizer(context) ? iam(context).or(() -> jwt(context))
                    : Optional.of(CallerIdentity.ANONYMOUS);
        };
    }

    public AuthMode mode() {
        return mode;
    }

    /** True when an authorizer vouched for the request (whether or not its context names a caller). */
    private static boolean hasAuthorizer(RequestContext context) {
        return context != null && context.getAuthorizer() != null && (context.getAuthorizer().getIam() != null
                || context.getAuthorizer().getJwt() != null);
    }

    private Optional<CallerIdentity> iam(RequestContext context) {
        RequestContext.IAM iam = context == null || context.getAuthorizer() == null ? null
                : context.getAuthorizer().getIam();
        if (iam == null || (isBlank(iam.getUserArn()) && (isBlank(iam.getAccountId())
                || isBlank(iam.getCallerId())))) {
            return Optional.empty();
        }
        return Optional.of(iamScope.identify(iam.getUserArn(), iam.getAccountId(), iam.getCallerId()));
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
