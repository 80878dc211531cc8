package dev.agentd.server.fallback.control;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.fallback.Cooldowns;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.LimitScope;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * What one session has learnt about models from their failures (FALLBACK §5.1, §5.4): the turn's
 * tried set and rejected providers, and the cooldowns, which outlive the turn. Account-wide and
 * model-wide exhaustion are cooldowns of their own (by provider, by selector) with the usage-limit
 * duration: that is what "unusable" means for the stranded-revert rule. The tried set and rejected
 * providers are guarded by the {@link Rungs} lock; the cooldowns are thread-safe on their own (a
 * user's model change clears them without that lock).
 */
final class ModelHealth {
    /** Models cooling down after a failure, by base selector: the only ones listed. */
    private final Cooldowns cooldowns;
    /** Providers whose account hit a usage limit. */
    private final Cooldowns spentAccounts;
    /** Models whose own quota or billing is spent, by base selector. */
    private final Cooldowns exhausted;
    private final Set<String> tried = new HashSet<>();
    private final Set<String> rejectedProviders = new HashSet<>();

    ModelHealth(RandomGenerator random) {
        // One random source for all three: the jitter draws keep the order of the failures.
        this.cooldowns = new Cooldowns(random);
        this.spentAccounts = new Cooldowns(random);
        this.exhausted = new Cooldowns(random);
    }

    /** A new user message: a fresh tried set and no rejected providers. */
    void resetTurn() {
        tried.clear();
        rejectedProviders.clear();
    }

    void markTried(String base) {
        tried.add(lower(base));
    }

    boolean tried(String base) {
        return tried.contains(lower(base));
    }

    /** What a failure says about {@code from} for the rest of the turn (provider skips, exhaustion). */
    void noteFailure(Classification classification, Long retryAfterMs, Model from, long now) {
        ErrorClass errorClass = classification.errorClass();
        if (errorClass == ErrorClass.CREDENTIAL_REJECTED) {
            rejectedProviders.add(lower(from.provider()));
        }
        long hint = retryAfterMs == null ? 0 : retryAfterMs;
        if (classification.scope() == LimitScope.ACCOUNT) {
            spentAccounts.note(from.provider(), CooldownCause.USAGE_BILLING_QUOTA, hint, now);
        } else if (classification.scope() == LimitScope.MODEL || errorClass == ErrorClass.BILLING
                || errorClass == ErrorClass.QUOTA) {
            exhausted.note(from.selector(), CooldownCause.USAGE_BILLING_QUOTA, hint, now);
        }
    }

    /** Cools {@code base} down for its cause; returns the duration. */
    long cool(String base, CooldownCause cause, long hintMs, long now) {
        return cooldowns.note(base, cause, hintMs, now);
    }

    /** Cooling down, or its model exhausted: a scan skips it. */
    boolean cooling(String base, long now) {
        return cooldowns.isCooling(base, now) || exhausted.isCooling(base, now);
    }

    long coolingMs(String base, long now) {
        return cooldowns.remainingMs(base, now);
    }

    boolean accountSpent(String provider, long now) {
        return spentAccounts.isCooling(provider, now);
    }

    boolean rejected(String provider) {
        return rejectedProviders.contains(lower(provider));
    }

    /** Its account or the model itself is spent for now. */
    boolean unusable(Model model, long now) {
        return accountSpent(model.provider(), now) || exhausted.isCooling(model.selector(), now);
    }

    /** A probe found {@code base} answering: it no longer cools down. */
    void recovered(String base) {
        cooldowns.clear(base);
    }

    /** The user chose {@code model}: whatever kept it (or its account) out ends. */
    void chosen(Model model) {
        cooldowns.clear(model.selector());
        exhausted.clear(model.selector());
        spentAccounts.clear(model.provider());
    }

    /** The models cooling down, for {@code get_fallback_state} (spent accounts and quotas stay internal). */
    List<Results.FallbackCooldown> listed(long now) {
        return cooldowns.snapshot(now).stream()
                .map(entry -> new Results.FallbackCooldown(entry.selector(), entry.remainingMs())).toList();
    }

    private static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }
}
