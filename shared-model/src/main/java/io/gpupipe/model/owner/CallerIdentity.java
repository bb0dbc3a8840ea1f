package io.gpupipe.model.owner;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.gpupipe.model.JobJson;

/**
 * Who calls the API, as API Gateway's authorizer vouched for it, and the {@link Owner} that follows: an IAM principal
 * (SigV4) or every session of an assumed role ({@link IamCallerScope}), a JWT's issuer and subject, or its issuer and tenant claim (then every caller of one tenant is one owner),
 * or the one anonymous caller of a deployment without an authorizer. The canonical form its owner is derived from
 * ({@link OwnerIds}) is a JSON array (kind first), so no two identities of any kinds share one, whatever characters
 * their parts hold.
 */
public sealed interface CallerIdentity {
    /** The one caller of a deployment without an authorizer. */
    CallerIdentity ANONYMOUS = new Anonymous();

    /**
     * The caller's canonical identity, a JSON array (kind first), from which {@link OwnerIds} derives the owner of
     * everything it submits.
     */
    String canonical();

    /** An IAM principal: its ARN, or its account and caller id where API Gateway gives no ARN. */
    record Iam(String userArn, String accountId, String callerId) implements CallerIdentity {
        public Iam {
            if (isBlank(userArn) && (isBlank(accountId) || isBlank(callerId))) {
                throw new IllegalArgumentException("an IAM caller has a userArn, or an accountId and a callerId");
            }
        }

        @Override
        public String canonical() {
            return isBlank(userArn) ? canonicalOf("iam-caller", accountId, callerId) : canonicalOf("iam", userArn);
        }
    }

    /**
     * Every session of an assumed role: the role's name in its account and partition ({@link IamCallerScope#ROLE}).
     * An assumed-role ARN names the role without its path, so this is what every session's ARN shares.
     */
    record IamRole(String partition, String accountId, String roleName) implements CallerIdentity {
        public IamRole {
            if (isBlank(partition) || isBlank(accountId) || isBlank(roleName)) {
                throw new IllegalArgumentException("an IAM role caller has a partition, an account and a role name");
            }
        }

        @Override
        public String canonical() {
            return canonicalOf("iam-role", partition, accountId, roleName);
        }
    }

    /** A JWT's subject at its issuer. */
    record Jwt(String issuer, String subject) implements CallerIdentity {
        public Jwt {
            if (isBlank(issuer) || isBlank(subject)) {
                throw new IllegalArgumentException("a JWT caller has an issuer and a subject");
            }
        }

        @Override
        public String canonical() {
            return canonicalOf("jwt", issuer, subject);
        }
    }

    /** A tenant of a JWT issuer (the value of the configured tenant claim): its callers share their jobs. */
    record JwtTenant(String issuer, String claim, String tenant) implements CallerIdentity {
        public JwtTenant {
            if (isBlank(issuer) || isBlank(claim) || isBlank(tenant)) {
                throw new IllegalArgumentException("a JWT tenant has an issuer, a claim name and a value");
            }
        }

        @Override
        public String canonical() {
            return canonicalOf("jwt-tenant", issuer, claim, tenant);
        }
    }

    /** The caller of a deployment without an authorizer (local development): one owner for everyone. */
    record Anonymous() implements CallerIdentity {
        @Override
        public String canonical() {
            return canonicalOf("anonymous");
        }
    }

    private static String canonicalOf(String... parts) {
        ArrayNode array = JobJson.mapper().createArrayNode();
        for (String part : parts) {
            array.add(part);
        }
        return JobJson.write(array);
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }
}
