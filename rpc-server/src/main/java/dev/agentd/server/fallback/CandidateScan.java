package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ThinkingSupport;
import dev.agentd.server.recovery.Candidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Picks the next rung of a chain (the fallback design §5.2). Pure: every fact about the session
 * and the providers comes in through a {@link View}. One pass over the entries, in order.
 *
 * <p>Each entry is checked in this order, the first failing check naming the skip: unknown, self,
 * tried, rejected-credential, unauthenticated, suppressed (cooling). An entry that passes is then
 * ranked by two soft facts instead of being dropped: its provider's account is spent
 * (account-limit) and its circuit is open (circuit-open). The choice is the first entry with
 * neither; else the first on a spent account whose circuit is closed; else the first whose circuit
 * is open — a chain never refuses a turn while an entry is left. Decision (the reference leaves it
 * open): a closed circuit on a spent account is preferred to an open circuit, because an open
 * circuit is a recent, measured failure of that very entry while an account limit may still let a
 * model-scoped rung through.
 *
 * <p>{@link Scan#skips} lists every entry passed over with the reason it lost: those before a
 * clean choice (the pass stops there), else every entry but the chosen one.
 */
public final class CandidateScan {
    private CandidateScan() {}

    /**
     * What the scan needs to know. Selectors are {@link Model#selector()} bases ({@code provider/id}).
     *
     * @param current the model in use, or null
     * @param currentThinking its level; the candidate inherits it when its entry names none
     * @param tried base selectors already tried this turn
     * @param cooling base selectors cooling down now (the caller binds {@code nowMs})
     * @param circuitOpen base selectors whose shared circuit refuses this session now
     * @param hasCredential providers with a credential configured
     * @param accountSpent providers whose account hit a usage limit
     * @param credentialRejected providers that rejected their credential this turn
     */
    public record View(
            Model current,
            ThinkingLevel currentThinking,
            Predicate<String> tried,
            Predicate<String> cooling,
            Predicate<String> circuitOpen,
            Predicate<String> hasCredential,
            Predicate<String> accountSpent,
            Predicate<String> credentialRejected) {

        /** A view with nothing tried, cooling, open, spent or rejected, and every provider authenticated. */
        public static View of(Model current, ThinkingLevel currentThinking) {
            return new View(current, currentThinking, s -> false, s -> false, s -> false, p -> true, p -> false,
                    p -> false);
        }

        public View withTried(Predicate<String> tried) {
            return new View(current, currentThinking, tried, cooling, circuitOpen, hasCredential, accountSpent,
                    credentialRejected);
        }

        public View withCooling(Predicate<String> cooling) {
            return new View(current, currentThinking, tried, cooling, circuitOpen, hasCredential, accountSpent,
                    credentialRejected);
        }

        public View withCircuitOpen(Predicate<String> circuitOpen) {
            return new View(current, currentThinking, tried, cooling, circuitOpen, hasCredential, accountSpent,
                    credentialRejected);
        }

        public View withCredentials(Predicate<String> hasCredential) {
            return new View(current, currentThinking, tried, cooling, circuitOpen, hasCredential, accountSpent,
                    credentialRejected);
        }

        public View withAccountSpent(Predicate<String> accountSpent) {
            return new View(current, currentThinking, tried, cooling, circuitOpen, hasCredential, accountSpent,
                    credentialRejected);
        }

        public View withCredentialRejected(Predicate<String> credentialRejected) {
            return new View(current, currentThinking, tried, cooling, circuitOpen, hasCredential, accountSpent,
                    credentialRejected);
        }
    }

    /** A chain entry the scan passed over. */
    public record Skip(String candidate, SkipReason reason) {}

    /**
     * @param next the rung to switch to, if any
     * @param skips entries passed over before it
     * @param circuitOpen whether {@code next} is an entry whose circuit is open (nothing closed was left)
     */
    public record Scan(Optional<Candidate> next, List<Skip> skips, boolean circuitOpen) {
        public Scan {
            skips = List.copyOf(skips);
        }
    }

    private static final int CLEAN = 0;
    private static final int SPENT = 1;
    private static final int OPEN = 2;

    /**
     * Scans {@code entries} (usually {@link Chains#candidatesAfter}) of the chain {@code chainKey}.
     */
    public static Scan scan(String chainKey, List<String> entries, FallbackCatalog catalog, View view) {
        String self = view.current() == null ? null : view.current().selector();
        int size = entries.size();
        Model[] models = new Model[size];
        ThinkingLevel[] asked = new ThinkingLevel[size];
        SkipReason[] reasons = new SkipReason[size];
        int[] grade = new int[size];
        int best = -1;
        for (int i = 0; i < size; i++) {
            String entry = entries.get(i);
            Optional<FallbackCatalog.Resolved> resolved = catalog.resolve(entry);
            if (resolved.isEmpty()) {
                reasons[i] = SkipReason.UNKNOWN;
                continue;
            }
            Model model = resolved.get().model();
            String base = model.selector();
            String provider = model.provider();
            reasons[i] = base.equalsIgnoreCase(self) ? SkipReason.SELF
                    : view.tried().test(base) ? SkipReason.TRIED
                    : view.credentialRejected().test(provider) ? SkipReason.REJECTED_CREDENTIAL
                    : !view.hasCredential().test(provider) ? SkipReason.UNAUTHENTICATED
                    : view.cooling().test(base) ? SkipReason.SUPPRESSED
                    : null;
            if (reasons[i] != null) {
                continue;
            }
            models[i] = model;
            asked[i] = resolved.get().thinking().orElse(null);
            boolean open = view.circuitOpen().test(base);
            grade[i] = open ? OPEN : view.accountSpent().test(provider) ? SPENT : CLEAN;
            reasons[i] = open ? SkipReason.CIRCUIT_OPEN : grade[i] == SPENT ? SkipReason.ACCOUNT_LIMIT : null;
            if (best < 0 || grade[i] < grade[best]) {
                best = i;
                if (grade[i] == CLEAN) {
                    break;
                }
            }
        }
        // A clean choice stopped the pass, so only the entries before it were passed over; any
        // other choice (or none) looked at the whole list.
        int listed = best >= 0 && grade[best] == CLEAN ? best : size;
        List<Skip> skips = new ArrayList<>(listed);
        for (int i = 0; i < listed; i++) {
            if (i != best) {
                skips.add(new Skip(entries.get(i), reasons[i]));
            }
        }
        if (best < 0) {
            return new Scan(Optional.empty(), skips, false);
        }
        ThinkingLevel thinking = clamp(models[best], asked[best] != null ? asked[best] : view.currentThinking());
        Candidate candidate = new Candidate(models[best], thinking, chainKey, entries.get(best));
        return new Scan(Optional.of(candidate), skips, grade[best] == OPEN);
    }

    /**
     * The level to run a candidate at: the entry's own, else the current one, else off, clamped
     * to the model ({@link ThinkingSupport#clamp}: the highest supported level not above it). With
     * agentd's level ladders (contiguous from off) this equals the reference's "nearest above,
     * else highest below" rule, which only differs on ladders with gaps.
     */
    public static ThinkingLevel clamp(Model model, ThinkingLevel requested) {
        return ThinkingSupport.clamp(model, requested == null ? ThinkingLevel.OFF : requested);
    }
}
