package dev.agentd.server.fallback;

/** When an episode returns to its original model (the fallback design §5.3). */
public enum RevertPolicy {
    /** Back at a turn boundary once the original is no longer cooling (or its circuit is not open). */
    COOLDOWN_EXPIRY("cooldown-expiry"),
    /** Stay on the fallback, except when the fallback itself became unusable. */
    NEVER("never");

    private final String wire;

    RevertPolicy(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Exactly {@code "never"} is {@link #NEVER}; anything else is {@link #COOLDOWN_EXPIRY}. */
    public static RevertPolicy parse(String text) {
        return NEVER.wire.equals(text) ? NEVER : COOLDOWN_EXPIRY;
    }
}
