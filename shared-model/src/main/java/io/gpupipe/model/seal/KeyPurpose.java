package io.gpupipe.model.seal;

/**
 * What a key derived from the {@link DeploymentKey} is for; each purpose has its own label, so the keys differ.
 * A new purpose is a new constant (and a new label, never reused).
 */
public enum KeyPurpose {
    /** Sealing job messages the router and the batch function send ({@link MessageSeal}). */
    MESSAGE_SEAL("gpupipe/message-seal/v1"),
    /** Deriving an API caller's owner id from its identity ({@link DeploymentKey#ownerIds}). */
    OWNER_ID("gpupipe/owner-id/v1");

    private final String label;

    KeyPurpose(String label) {
        this.label = label;
    }

    /** The HMAC input this purpose's key is derived with. */
    public String label() {
        return label;
    }
}
