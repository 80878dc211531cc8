package dev.agentd.server.fallback;

import dev.agentd.protocol.model.ThinkingLevel;

/**
 * Whether a fallback episode goes back to its original model at a turn boundary (the fallback
 * design §5.3). Pure: the controller gathers the facts, calls {@link #decide}, and carries out the
 * switch.
 *
 * <p>The rules, in order: no episode, or a pin → stay. The original must be usable at all (known,
 * credential configured, not itself marked unusable). A fallback that became unusable while the
 * original is usable reverts at once, under either policy and whatever the original's cooldown
 * (cause {@code fallback-unusable}). Otherwise only {@code cooldown-expiry} reverts: when the shared
 * breaker holds a record for the original, the circuit decides (open → stay; half-open → revert and
 * claim the probe; closed → revert); without one, the session cooldown must have expired.
 */
public final class RevertRule {
    private RevertRule() {}

    /** The original's circuit as the breaker sees it; {@code NONE} = no record, the cooldown governs. */
    public enum Circuit { NONE, CLOSED, HALF_OPEN, OPEN }

    /**
     * @param active a fallback episode is in progress
     * @param originalUsable the original is known, its provider has a credential, and it is not marked unusable
     * @param currentUnusable the current fallback's account or entry is spent
     * @param originalCoolingUntilMs the original's cooldown expiry (monotonic), or 0 when none
     * @param originalCircuit the original's circuit
     */
    public record Facts(boolean active, Pins pins, boolean originalUsable, boolean currentUnusable,
            long originalCoolingUntilMs, Circuit originalCircuit) {}

    public enum StayReason { NO_EPISODE, PINNED, ORIGINAL_UNUSABLE, POLICY_NEVER, COOLING, CIRCUIT_OPEN }

    /** A decision; carried out through a {@link Handler}, so a new kind cannot be dropped silently. */
    public sealed interface Decision permits Stay, Revert, RevertAtOnce {
        <R> R accept(Handler<R> handler);
    }

    /** One method per kind of {@link Decision}. */
    public interface Handler<R> {
        R stay(Stay stay);

        R revert(Revert revert);

        R revertAtOnce(RevertAtOnce revert);
    }

    public record Stay(StayReason why) implements Decision {
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.stay(this);
        }
    }

    /** Back to the original; {@code claimProbe}: its circuit is half-open, so this session probes it. */
    public record Revert(boolean claimProbe) implements Decision {
        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.revert(this);
        }
    }

    /** The fallback became unusable: back to the original whatever the policy. */
    public record RevertAtOnce() implements Decision {
        public String cause() {
            return "fallback-unusable";
        }

        @Override
        public <R> R accept(Handler<R> handler) {
            return handler.revertAtOnce(this);
        }
    }

    public static Decision decide(Facts facts, RevertPolicy policy, long nowMs) {
        if (!facts.active()) {
            return new Stay(StayReason.NO_EPISODE);
        }
        if (facts.pins().pinned()) {
            return new Stay(StayReason.PINNED);
        }
        if (!facts.originalUsable()) {
            return new Stay(StayReason.ORIGINAL_UNUSABLE);
        }
        if (facts.currentUnusable()) {
            return new RevertAtOnce();
        }
        if (policy == RevertPolicy.NEVER) {
            return new Stay(StayReason.POLICY_NEVER);
        }
        return switch (facts.originalCircuit()) {
            case OPEN -> new Stay(StayReason.CIRCUIT_OPEN);
            case HALF_OPEN -> new Revert(true);
            case CLOSED -> new Revert(false);
            case NONE -> nowMs < facts.originalCoolingUntilMs() ? new Stay(StayReason.COOLING) : new Revert(false);
        };
    }

    /**
     * The level to restore on revert: the original's when the user has not changed the level since
     * the switch ({@code current} still equals {@code lastApplied}); else the user's current choice.
     *
     * @param lastApplied the level the switch applied, or null once the user changed it
     */
    public static ThinkingLevel thinkingOnRevert(ThinkingLevel current, ThinkingLevel lastApplied,
            ThinkingLevel original) {
        if (lastApplied != null && lastApplied == current) {
            return original != null ? original : current;
        }
        return current != null ? current : ThinkingLevel.OFF;
    }
}
