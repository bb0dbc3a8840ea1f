package io.gpupipe.localstack.apigateway;

import io.gpupipe.model.Digests;
import io.gpupipe.model.owner.CallerIdentity;
import io.gpupipe.model.owner.IamCallerScope;
import io.gpupipe.model.owner.Owner;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The local stack's IAM callers: temporary credentials (access key, secret, session token, made anew at each start)
 * of assumed-role sessions, as {@code aws sts assume-role} hands them out, so that SigV4 clients (the AWS SDKs,
 * {@code aws}, {@code awscurl}) call the local HTTP API as they call a deployed one. Two sessions of one role and a
 * session of another show how callers are scoped ({@link IamCallerScope}): by default the two sessions are one
 * caller, the other role another.
 */
public final class LocalIamPrincipals {
    /** The role of the first two sessions. */
    public static final String ROLE_A = "caller-a";
    /** The role of the third session. */
    public static final String ROLE_B = "caller-b";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ACCESS_KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    /** One session's credentials and who API Gateway's IAM authorizer says it is. */
    public record Principal(String accessKeyId, String secretAccessKey, String sessionToken, String roleName,
                            String sessionName) {
        /** {@code arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION}, API Gateway's {@code userArn}. */
        public String userArn() {
            return "arn:aws:sts::" + HttpApiPayload.ACCOUNT_ID + ":assumed-role/" + roleName + "/" + sessionName;
        }

        /** The role's unique id ({@code AROA...}), the same for every session of the role. */
        public String roleId() {
            return "AROA" + Digests.sha256Hex(roleName).substring(0, 17).toUpperCase(Locale.ROOT);
        }

        /** API Gateway's {@code callerId} and {@code userId} of a role session: the role id and the session name. */
        public String callerId() {
            return roleId() + ":" + sessionName;
        }

        /** The caller the router makes of this session with the default scope. */
        public CallerIdentity identity() {
            return IamCallerScope.DEFAULT.identify(userArn(), HttpApiPayload.ACCOUNT_ID, callerId());
        }

        /** The shell line that makes this session the credentials of {@code aws}, {@code awscurl} and the SDKs. */
        public String exportLine() {
            return "export AWS_ACCESS_KEY_ID=" + accessKeyId + " AWS_SECRET_ACCESS_KEY=" + secretAccessKey
                    + " AWS_SESSION_TOKEN=" + sessionToken;
        }
    }

    private final List<Principal> principals;

    LocalIamPrincipals(List<Principal> principals) {
        this.principals = List.copyOf(principals);
    }

    /** New credentials for sessions {@code replica-1}, {@code replica-2} of {@link #ROLE_A} and one of {@link #ROLE_B}. */
    public static LocalIamPrincipals generate() {
        return new LocalIamPrincipals(List.of(session(ROLE_A, "replica-1"), session(ROLE_A, "replica-2"),
                session(ROLE_B, "replica-1")));
    }

    /** Every session, in the order the banner prints them. */
    public List<Principal> all() {
        return principals;
    }

    /** The session whose access key id this is. */
    public Optional<Principal> byAccessKey(String accessKeyId) {
        return principals.stream().filter(p -> p.accessKeyId().equals(accessKeyId)).findFirst();
    }

    private static Principal session(String role, String session) {
        StringBuilder key = new StringBuilder("ASIA");
        for (int i = 0; i < 16; i++) {
            key.append(ACCESS_KEY_ALPHABET.charAt(RANDOM.nextInt(ACCESS_KEY_ALPHABET.length())));
        }
        return new Principal(key.toString(), random(30), random(48), role, session);
    }

    /** {@code bytes} random bytes, base64 without {@code /}, {@code +} or padding (safe to paste in a shell). */
    private static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }
}
