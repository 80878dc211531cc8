package dev.agentd.server.fallback;

/** Why a candidate scan passed over a chain entry (logged as {@code candidate_skipped.skipReason}). */
public enum SkipReason {
    /** Not in the catalog (any more). */
    UNKNOWN("unknown"),
    /** The model currently in use. */
    SELF("self"),
    /** Already tried this turn. */
    TRIED("tried"),
    /** Its provider rejected the credential this turn; every rung of that provider is skipped. */
    REJECTED_CREDENTIAL("rejected-credential"),
    /** Its provider has no credential configured. */
    UNAUTHENTICATED("unauthenticated"),
    /** Cooling down in this session. */
    SUPPRESSED("suppressed"),
    /** Its provider's account hit a usage limit; such rungs are a last resort, never dropped. */
    ACCOUNT_LIMIT("account-limit"),
    /** Its shared circuit is open; used only when nothing closed is left. */
    CIRCUIT_OPEN("circuit-open");

    private final String wire;

    SkipReason(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
