package dev.agentd.server.session;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.fallback.Cooldowns;
import dev.agentd.server.fallback.LimitScope;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * What one session has learnt about models from their failures (FALLBACK §5.1, §5.4): the turn's
 * tried set and rejected providers, and the cooldowns, which outlive the turn. Account-wide and
 * model-wide exhaustion are kept among the cooldowns under {@code account:<provider>} and
 * {@code exhausted:<provider>/<id>} with the usage-limit duration: that is what "unusable" means
 * for the stranded-revert rule. The tried set and rejected providers are guarded by the owning
 * {@link FallbackControl}'s lock; the cooldowns are thread-safe on their own (a user's model
 * change clears them without that lock).
 */
final class ModelHealth {
    private static final String ACCOUNT = "account:";
    private static final String EXHAUSTED = "exhausted:";

    private final Cooldowns cooldowns;
    private final Set<String> tried = new HashSet<>();
    private final Set<String> rejectedProviders = new HashSet<>();

    ModelHealth(RandomGenerator random) {
        this.cooldowns = new Cooldowns(random);
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
            cooldowns.note(ACCOUNT + from.provider(), CooldownCause.USAGE_BILLING_QUOTA, hint, now);
        } else if (classification.scope() == LimitScope.MODEL || errorClass == ErrorClass.BILLING
                || errorClass == ErrorClass.QUOTA) {
            cooldowns.note(EXHAUSTED + from.selector(), CooldownCause.USAGE_BILLING_QUOTA, hint, now);
        }
    }

    /** Cools {@code base} down for its cause; returns the duration. */
    long cool(String base, CooldownCause cause, long hintMs, long now) {
        return cooldowns.note(base, cause, hintMs, now);
    }

    /** Cooling down, or its model exhausted: a scan skips it. */
    boolean cooling(String base, long now) {
        return cooldowns.isCooling(base, now) || cooldowns.isCooling(EXHAUSTED + base, now);
    }

    long coolingMs(String base, long now) {
        return cooldowns.remainingMs(base, now);
    }

    boolean accountSpent(String provider, long now) {
        return cooldowns.isCooling(ACCOUNT + provider, now);
    }

    boolean rejected(String provider) {
        return rejectedProviders.contains(lower(provider));
    }

    /** Its account or the model itself is spent for now. */
    boolean unusable(Model model, long now) {
        return accountSpent(model.provider(), now) || cooldowns.isCooling(EXHAUSTED + model.selector(), now);
    }

    /** A probe found {@code base} answering: it no longer cools down. */
    void recovered(String base) {
        cooldowns.clear(base);
    }

    /** The user chose {@code model}: whatever kept it (or its account) out ends. */
    void chosen(Model model) {
        cooldowns.clear(model.selector());
        cooldowns.clear(EXHAUSTED + model.selector());
        cooldowns.clear(ACCOUNT + model.provider());
    }

    /** The models cooling down, for {@code get_fallback_state} (the markers stay internal). */
    List<Results.FallbackCooldown> listed(long now) {
        return cooldowns.snapshot(now).stream()
                .filter(entry -> !entry.selector().startsWith(ACCOUNT) && !entry.selector().startsWith(EXHAUSTED))
                .map(entry -> new Results.FallbackCooldown(entry.selector(), entry.remainingMs())).toList();
    }

    private static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }
}
