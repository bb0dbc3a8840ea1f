package io.gpupipe.model.owner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpupipe.model.Digests;
import io.gpupipe.model.seal.DeploymentKey;
import io.gpupipe.model.seal.DeploymentKeyVersions;
import io.gpupipe.model.seal.KeyPurpose;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Owner ids keyed with the deployment key: knowing a caller's ARN or token subject (and so its canonical identity)
 * computes neither its owner id nor the ids its jobs are stored under; the deployment keeps honouring the ids a
 * caller had under the key's previous version and, when asked to, its unkeyed ids.
 */
class OwnerIdsTest {
    private static final DeploymentKey KEY = DeploymentKey.of("owner-ids-test-key-one-".repeat(2));
    private static final DeploymentKey NEXT_KEY = DeploymentKey.of("owner-ids-test-key-two-".repeat(2));
    private static final CallerIdentity ALICE = new CallerIdentity.IamRole("aws", "123456789012", "alice");
    private static final String CLIENT_ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";

    @Test
    void keyed_shouldBeNothingAnOutsiderComputesFromTheIdentity() {
        // what anyone who knows alice's role ARN can compute: a digest of her canonical identity
        String computable = Digests.sha256Hex(ALICE.canonical());

        Owner owner = KEY.ownerIds().of(ALICE);

        assertThat(owner.value()).startsWith(Owner.KEYED_PREFIX).doesNotContain(computable);
        assertThat(owner).isNotEqualTo(OwnerIds.UNKEYED.of(ALICE));
        assertThat(OwnerIds.UNKEYED.of(ALICE).hex()).isEqualTo(computable);
        // nor is any of her jobs' stored ids
        assertThat(JobIds.stored(owner, CLIENT_ID)).isNotEqualTo(JobIds.stored(OwnerIds.UNKEYED.of(ALICE), CLIENT_ID));
    }

    @Test
    void keyed_shouldBeStableForOneKey_andDifferUnderAnother() {
        assertThat(KEY.ownerIds().of(ALICE)).isEqualTo(DeploymentKey.of("owner-ids-test-key-one-".repeat(2))
                .ownerIds().of(ALICE));
        assertThat(NEXT_KEY.ownerIds().of(ALICE)).isNotEqualTo(KEY.ownerIds().of(ALICE));
        // the key's other uses do not reveal this one: the owner-id key is derived for its own purpose
        assertThat(KEY.ownerIds().of(ALICE)).isNotEqualTo(OwnerIds.keyed(KEY.derive(KeyPurpose.MESSAGE_SEAL))
                .of(ALICE));
    }

    @Test
    void keyed_shouldRefuseAShortKey() {
        assertThatThrownBy(() -> OwnerIds.keyed(new byte[31])).isInstanceOf(IllegalArgumentException.class);
        assertThat(KEY.ownerIds().toString()).isEqualTo("OwnerIds[keyed, redacted]");
    }

    @Test
    void owner_shouldTakeBothForms_andNameItsHashInKeys() {
        Owner keyed = KEY.ownerIds().of(ALICE);
        Owner unkeyed = OwnerIds.UNKEYED.of(ALICE);

        assertThat(new Owner(keyed.value())).isEqualTo(keyed);
        assertThat(keyed.isCaller()).isTrue();
        assertThat(unkeyed.isCaller()).isTrue();
        assertThat(Owner.QUEUE.isCaller()).isFalse();
        assertThat(keyed.hex()).hasSize(64).isEqualTo(keyed.value().substring(Owner.KEYED_PREFIX.length()));
        assertThat(Owner.isValid("hmac-sha256:" + "a".repeat(63))).isFalse();
        assertThat(Owner.isValid("hmac:" + "a".repeat(64))).isFalse();
    }

    @Test
    void ownerIdKeys_shouldNameTheCurrentIdFirst_thenThePreviousKeys_thenTheUnkeyedWhenAccepted() {
        DeploymentKeyVersions rotated = new DeploymentKeyVersions(NEXT_KEY, Optional.of(KEY));

        CallerOwners during = rotated.ownerIds(true).of(ALICE);
        CallerOwners after = DeploymentKeyVersions.of(NEXT_KEY).ownerIds(false).of(ALICE);

        assertThat(during.current()).isEqualTo(NEXT_KEY.ownerIds().of(ALICE));
        assertThat(during.earlier()).containsExactly(KEY.ownerIds().of(ALICE), OwnerIds.UNKEYED.of(ALICE));
        assertThat(during.all()).hasSize(3).first().isEqualTo(during.current());
        assertThat(after.earlier()).isEmpty();
        assertThat(after.includes(KEY.ownerIds().of(ALICE))).isFalse();
        // a deployment without a key: the unkeyed ids alone
        assertThat(OwnerIdKeys.only(OwnerIds.UNKEYED).of(ALICE))
                .isEqualTo(CallerOwners.only(OwnerIds.UNKEYED.of(ALICE)));
    }

    @Test
    void callerOwners_shouldHoldEachIdOnce_andNeverAnotherCallers() {
        Owner bob = KEY.ownerIds().of(new CallerIdentity.Jwt("https://idp.example.com", UUID.randomUUID().toString()));
        Owner alice = KEY.ownerIds().of(ALICE);

        CallerOwners owners = new CallerOwners(alice, List.of(alice, OwnerIds.UNKEYED.of(ALICE),
                OwnerIds.UNKEYED.of(ALICE)));

        assertThat(owners.earlier()).containsExactly(OwnerIds.UNKEYED.of(ALICE));
        assertThat(owners.includes(alice)).isTrue();
        assertThat(owners.includes(bob)).isFalse();
    }
}
