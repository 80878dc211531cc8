package dev.agentd.server.recovery;

/**
 * What a usage limit covers (FALLBACK.md §3, the {@code limit} field of fallback events): one
 * model (another model of the same provider may serve) or the whole account.
 */
public enum LimitScope {
    MODEL("model"),
    ACCOUNT("account");

    private final String wire;

    LimitScope(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
