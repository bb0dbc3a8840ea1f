package io.gpupipe.model.owner;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which IAM principal is one caller (SAM's {@code IamCallerScope} parameter). An assumed role's ARN names a session
 * ({@code arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION}), and ECS tasks, Lambda functions and CI jobs get a new
 * session name per task or run: with {@link #ROLE} (the default) every session of one role is one caller, so a
 * service's replicas share their jobs and a retry from another replica is a resubmission, not a second job (nor a
 * fresh quota); with {@link #SESSION} each session is its own caller. IAM users, the account root and federated
 * users are their own callers under both. Only the identity API Gateway's authorizer vouched for is read.
 */
public enum IamCallerScope {
    /** Every session of an assumed role is one caller: the role in its account. */
    ROLE,
    /** Each principal ARN, session name included, is its own caller. */
    SESSION;

    /** The environment variable SAM sets from its {@code IamCallerScope} parameter (the router's config key). */
    public static final String ENV_VAR = "GPUPIPE_ROUTER_IAM_CALLER_SCOPE";
    /** The scope when nothing is configured (SAM's parameter default too). */
    public static final IamCallerScope DEFAULT = ROLE;

    /** {@code arn:PARTITION:sts::ACCOUNT:assumed-role/ROLE/SESSION}: role names hold no {@code /}, sessions none. */
    private static final Pattern ASSUMED_ROLE = Pattern.compile(
            "^arn:([a-z0-9-]+):sts::([0-9]{12}):assumed-role/([^/]+)/([^/]+)$");
    /** An assumed role's caller id where no ARN is given: its role id ({@code AROA...}), a colon, the session. */
    private static final Pattern ROLE_CALLER_ID = Pattern.compile("^(AROA[A-Z0-9]+):.+$");

    /**
     * The caller API Gateway's IAM authorizer vouched for: its {@code userArn}, or its {@code accountId} and
     * {@code callerId} where it gives no ARN.
     */
    public CallerIdentity identify(String userArn, String accountId, String callerId) {
        return switch (this) {
            case SESSION -> new CallerIdentity.Iam(userArn, accountId, callerId);
            case ROLE -> role(userArn, accountId, callerId);
        };
    }

    private static CallerIdentity role(String userArn, String accountId, String callerId) {
        if (userArn != null && !userArn.isBlank()) {
            Matcher assumed = ASSUMED_ROLE.matcher(userArn);
            return assumed.matches() ? new CallerIdentity.IamRole(assumed.group(1), assumed.group(2),
                    assumed.group(3)) : new CallerIdentity.Iam(userArn, accountId, callerId);
        }
        String roleId = Optional.ofNullable(callerId).map(ROLE_CALLER_ID::matcher).filter(Matcher::matches)
                .map(m -> m.group(1)).orElse(callerId);
        return new CallerIdentity.Iam(null, accountId, roleId);
    }
}
