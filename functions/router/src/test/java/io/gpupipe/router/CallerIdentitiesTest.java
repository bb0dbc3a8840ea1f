package io.gpupipe.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent.RequestContext;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.IamCallerScope;
import io.gpupipe.router.RouterConfig.AuthMode;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The caller of an event's authorizer context, under each auth mode and IAM caller scope. */
class CallerIdentitiesTest {
    private static final String SESSION_1 = "arn:aws:sts::123456789012:assumed-role/inference-client/task-1";
    private static final String SESSION_2 = "arn:aws:sts::123456789012:assumed-role/inference-client/task-2";
    private static final String ISSUER = "https://idp.example.com";

    @Test
    void iam_shouldBeTheRole_byDefault_andTheSession_withSessionScope() {
        CallerIdentities byRole = new CallerIdentities(AuthMode.IAM, Optional.empty(), IamCallerScope.ROLE);
        CallerIdentities bySession = new CallerIdentities(AuthMode.IAM, Optional.empty(), IamCallerScope.SESSION);

        assertThat(byRole.of(iam(SESSION_1))).isEqualTo(byRole.of(iam(SESSION_2)))
                .hasValue(new CallerIdentity.IamRole("aws", "123456789012", "inference-client"));
        assertThat(bySession.of(iam(SESSION_1))).hasValue(new CallerIdentity.Iam(SESSION_1, "123456789012",
                "AROAEXAMPLE:task-1"));
        assertThat(bySession.of(iam(SESSION_1))).isNotEqualTo(bySession.of(iam(SESSION_2)));
    }

    @Test
    void jwt_shouldBeIssuerAndSubjectOrTenant_andNobodyWithoutEither() {
        CallerIdentities identities = new CallerIdentities(AuthMode.JWT, Optional.of("custom:tenant"),
                IamCallerScope.ROLE);

        assertThat(identities.of(jwt(Map.of("iss", ISSUER, "sub", "alice"))))
                .hasValue(new CallerIdentity.Jwt(ISSUER, "alice"));
        assertThat(identities.of(jwt(Map.of("iss", ISSUER, "custom:tenant", "acme"))))
                .hasValue(new CallerIdentity.JwtTenant(ISSUER, "custom:tenant", "acme"));
        assertThat(identities.of(jwt(Map.of("iss", ISSUER, "scope", "jobs")))).isEmpty();
        assertThat(identities.of(jwt(Map.of("iss", ISSUER, "sub", " ")))).isEmpty();
    }

    @Test
    void none_shouldBeAnonymousOnlyWithoutAnAuthorizer_neverForAContextNamingNobody() {
        CallerIdentities identities = new CallerIdentities(AuthMode.NONE, Optional.empty(), IamCallerScope.ROLE);

        assertThat(identities.of(new RequestContext())).hasValue(CallerIdentity.ANONYMOUS);
        assertThat(identities.of(null)).hasValue(CallerIdentity.ANONYMOUS);
        assertThat(identities.of(jwt(Map.of("iss", ISSUER, "sub", "alice"))))
                .hasValue(new CallerIdentity.Jwt(ISSUER, "alice"));
        assertThat(identities.of(jwt(Map.of("iss", ISSUER)))).isEmpty();
        assertThat(identities.of(jwt(Map.of()))).isEmpty();
        assertThat(identities.of(iam(" "))).isEmpty();
    }

    @Test
    void any_shouldTakeEitherAuthorizer_andRequireOne() {
        CallerIdentities identities = new CallerIdentities(AuthMode.ANY, Optional.empty(), IamCallerScope.ROLE);

        assertThat(identities.of(iam(SESSION_1))).hasValue(new CallerIdentity.IamRole("aws", "123456789012",
                "inference-client"));
        assertThat(identities.of(jwt(Map.of("iss", ISSUER, "sub", "alice"))))
                .hasValue(new CallerIdentity.Jwt(ISSUER, "alice"));
        assertThat(identities.of(new RequestContext())).isEmpty();
        assertThat(identities.of(jwt(Map.of("iss", ISSUER)))).isEmpty();
    }

    private static RequestContext iam(String arn) {
        RequestContext.IAM iam = new RequestContext.IAM();
        iam.setUserArn(arn);
        iam.setAccountId(arn.isBlank() ? null : "123456789012");
        iam.setCallerId(arn.isBlank() ? null : "AROAEXAMPLE:" + arn.substring(arn.lastIndexOf('/') + 1));
        RequestContext.Authorizer authorizer = new RequestContext.Authorizer();
        authorizer.setIam(iam);
        RequestContext context = new RequestContext();
        context.setAuthorizer(authorizer);
        return context;
    }

    private static RequestContext jwt(Map<String, String> claims) {
        RequestContext.Authorizer.JWT jwt = new RequestContext.Authorizer.JWT();
        jwt.setClaims(claims);
        RequestContext.Authorizer authorizer = new RequestContext.Authorizer();
        authorizer.setJwt(jwt);
        RequestContext context = new RequestContext();
        context.setAuthorizer(authorizer);
        return context;
    }
}
