package dev.agentd.server.recovery;

/** What a usage limit covers (the {@code limit} of {@code retry_fallback_applied}). */
public enum LimitScope {
    /** Only that model: another model of the same provider may still serve. */
    MODEL("model"),
    /** The whole provider account: its other rungs are a last resort. */
    ACCOUNT("account");

    private final String wire;

    LimitScope(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
