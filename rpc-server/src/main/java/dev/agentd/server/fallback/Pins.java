package dev.agentd.server.fallback;

import dev.agentd.server.recovery.LimitScope;
import dev.agentd.server.recovery.SwitchReason;
import java.util.Locale;

/**
 * Whether an episode is pinned to its fallback, so that no revert happens (the fallback design
 * §5.3). A refusal pins until a compaction rewrote the context (the same context would be refused
 * again); billing that hit the original model, or the original's whole account, pins for the rest
 * of the session (retrying that account never recovers it). Billing on a fallback from another
 * account does not pin. Runtime only: pins are never persisted.
 */
public record Pins(boolean byRefusal, boolean byBilling) {
    public static final Pins NONE = new Pins(false, false);

    public boolean pinned() {
        return byRefusal || byBilling;
    }

    /** {@code "refusal"}, {@code "billing"} (billing wins: it never releases), or null. */
    public String reason() {
        return byBilling ? "billing" : byRefusal ? "refusal" : null;
    }

    /**
     * The pins after switching away from {@code fromBase} for {@code reason}.
     *
     * @param limit the usage-limit scope of the failure, or null
     * @param originalBase the episode's original model ({@code fromBase} when this switch starts the episode)
     */
    public Pins afterSwitch(SwitchReason reason, LimitScope limit, String fromBase, String originalBase) {
        boolean billingHitsOriginal = reason == SwitchReason.BILLING
                && (fromBase.equalsIgnoreCase(originalBase)
                        || (limit == LimitScope.ACCOUNT && sameProvider(fromBase, originalBase)));
        return new Pins(byRefusal || reason == SwitchReason.REFUSAL, byBilling || billingHitsOriginal);
    }

    /** After a compaction applied: the refusal pin is released; a billing pin stays. */
    public Pins afterCompaction() {
        return new Pins(false, byBilling);
    }

    private static boolean sameProvider(String a, String b) {
        int slash = a.indexOf('/');
        return slash > 0 && b.toLowerCase(Locale.ROOT).startsWith(a.substring(0, slash + 1).toLowerCase(Locale.ROOT));
    }
}
