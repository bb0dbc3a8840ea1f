package io.gpupipe.model.owner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which IAM principals are one caller: every session of a role by default, each session with {@code session}. */
class IamCallerScopeTest {
    private static final String ACCOUNT = "123456789012";
    private static final String REPLICA_1 = "arn:aws:sts::123456789012:assumed-role/inference-client/ecs-task-1";
    private static final String REPLICA_2 = "arn:aws:sts::123456789012:assumed-role/inference-client/ecs-task-2";

    @Test
    void role_shouldMakeEverySessionOfOneRoleOneCaller() {
        Owner first = owner(IamCallerScope.ROLE.identify(REPLICA_1, ACCOUNT, "AROAEXAMPLEROLEID:ecs-task-1"));
        Owner second = owner(IamCallerScope.ROLE.identify(REPLICA_2, ACCOUNT, "AROAEXAMPLEROLEID:ecs-task-2"));

        assertThat(first).isEqualTo(second);
        assertThat(IamCallerScope.ROLE.identify(REPLICA_1, ACCOUNT, null))
                .isEqualTo(new CallerIdentity.IamRole("aws", ACCOUNT, "inference-client"));
    }

    @Test
    void role_shouldKeepRolesAccountsAndPartitionsApart() {
        Owner client = owner(IamCallerScope.ROLE.identify(REPLICA_1, ACCOUNT, null));

        assertThat(owner(IamCallerScope.ROLE.identify("arn:aws:sts::123456789012:assumed-role/batch-client/ecs-task-1",
                ACCOUNT, null))).isNotEqualTo(client);
        assertThat(owner(IamCallerScope.ROLE.identify(
                "arn:aws:sts::210987654321:assumed-role/inference-client/ecs-task-1", "210987654321", null)))
                .isNotEqualTo(client);
        assertThat(owner(IamCallerScope.ROLE.identify("arn:aws-cn:sts::123456789012:assumed-role/inference-client/x",
                ACCOUNT, null))).isNotEqualTo(client);
        // nor is the role one caller with a session's own ARN-scoped owner
        assertThat(owner(IamCallerScope.SESSION.identify(REPLICA_1, ACCOUNT, null))).isNotEqualTo(client);
    }

    @Test
    void session_shouldMakeEachSessionItsOwnCaller_asTheFullArn() {
        Owner first = owner(IamCallerScope.SESSION.identify(REPLICA_1, ACCOUNT, null));
        Owner second = owner(IamCallerScope.SESSION.identify(REPLICA_2, ACCOUNT, null));

        assertThat(first).isNotEqualTo(second);
        assertThat(first).isEqualTo(owner(new CallerIdentity.Iam(REPLICA_1, null, null)));
    }

    @Test
    void usersRootAndFederatedUsers_shouldBeThemselves_underBothScopes() {
        for (String arn : new String[] {"arn:aws:iam::123456789012:user/alice", "arn:aws:iam::123456789012:root",
                "arn:aws:sts::123456789012:federated-user/bob",
                // not the assumed-role shape (a session part missing): the ARN as it is
                "arn:aws:sts::123456789012:assumed-role/inference-client"}) {
            CallerIdentity asIs = new CallerIdentity.Iam(arn, ACCOUNT, null);
            assertThat(IamCallerScope.ROLE.identify(arn, ACCOUNT, null)).as(arn).isEqualTo(asIs);
            assertThat(IamCallerScope.SESSION.identify(arn, ACCOUNT, null)).as(arn).isEqualTo(asIs);
        }
    }

    @Test
    void role_shouldDropTheSessionOfARoleCallerId_whenThereIsNoArn() {
        Owner first = owner(IamCallerScope.ROLE.identify(null, ACCOUNT, "AROAEXAMPLEROLEID:ecs-task-1"));
        Owner second = owner(IamCallerScope.ROLE.identify(" ", ACCOUNT, "AROAEXAMPLEROLEID:ecs-task-2"));
        Owner user = owner(IamCallerScope.ROLE.identify(null, ACCOUNT, "AIDAEXAMPLEUSERID"));

        assertThat(first).isEqualTo(second);
        assertThat(user).isEqualTo(owner(new CallerIdentity.Iam(null, ACCOUNT, "AIDAEXAMPLEUSERID")));
        assertThat(owner(IamCallerScope.SESSION.identify(null, ACCOUNT, "AROAEXAMPLEROLEID:ecs-task-1")))
                .isNotEqualTo(owner(IamCallerScope.SESSION.identify(null, ACCOUNT, "AROAEXAMPLEROLEID:ecs-task-2")));
    }

    @Test
    void default_shouldBeRole_asSamsParameterDefault() {
        assertThat(IamCallerScope.DEFAULT).isEqualTo(IamCallerScope.ROLE);
    }

    private static Owner owner(CallerIdentity caller) {
        return OwnerIds.UNKEYED.of(caller);
    }
}
