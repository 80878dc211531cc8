package dev.agentd.server.recovery;

/** Why a session switched to a fallback (the {@code reason} of {@code retry_fallback_applied}). */
public enum SwitchReason {
    TRANSIENT("transient"),
    HARD_ERROR("hard-error"),
    BILLING("billing"),
    REFUSAL("refusal");

    private final String wire;

    SwitchReason(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
