package dev.agentd.server.fallback.control;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.fallback.CandidateScan;
import dev.agentd.server.fallback.FallbackCatalog;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.ChainsMemo;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.Pins;
import dev.agentd.server.recovery.Candidate;
import dev.agentd.server.state.Admission;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What both halves of the controller ask of the chains: the governing chain key, the next rung
 * (through the pure {@link CandidateScan}), its admission by the shared circuit, and stepping onto
 * it. Its monitor guards the turn state ({@link ModelHealth}'s tried set and rejected providers):
 * the end-of-run switch and the turn boundary both run under it.
 */
final class Rungs {
    final ModelSeat seat;
    final FallbackWiring wiring;
    final FallbackCatalog catalog;
    final ModelHealth health;
    final CircuitAccess circuits;
    final Episodes episodes = new Episodes();
    private final ChainsMemo memo = new ChainsMemo();

    Rungs(FallbackWiring wiring, ModelSeat seat) {
        this.wiring = wiring;
        this.seat = seat;
        // The region the Bedrock provider will call (its own first two sources) picks the profile.
        String region = System.getenv("AWS_REGION");
        this.catalog = FallbackCatalog.of(wiring.models())
                .withAwsRegion(region == null || region.isBlank() ? System.getenv("AWS_DEFAULT_REGION") : region);
        this.health = new ModelHealth(wiring.random());
        this.circuits = new CircuitAccess(wiring.services().state().circuits(), wiring.sessionId(), this::settings,
                wiring.services().probeLeaseMs(), wiring.scheduler()::monotonicMs, wiring.services().log(),
                wiring.emit());
    }

    FallbackSettings settings() {
        return wiring.services().settings(wiring.settings().get());
    }

    Chains chains(FallbackSettings settings) {
        return memo.get(settings.chains(), catalog, this::hasCredential);
    }

    long now() {
        return wiring.scheduler().monotonicMs();
    }

    FallbackLog log() {
        return wiring.services().log();
    }

    /** The chain governing {@code choice}: its own, else the episode's. */
    Optional<String> keyFor(Chains chains, ModelChoice choice) {
        return chains.keyFor(choice.model(), choice.effective(), episodes.chainKey());
    }

    /**
     * Scans the rungs after the current one.
     *
     * @param excluded providers skipped like a rejected credential (a rejection's own provider)
     * @param spent providers ranked like a spent account (an account limit's own provider)
     */
    CandidateScan.Scan scan(Chains chains, String key, ModelChoice choice, long now, Predicate<String> circuitOpen,
            Predicate<String> excluded, Predicate<String> spent) {
        Episodes.Episode episode = episodes.active();
        // The entry the episode switched to names its thinking level; a model changed since then does not.
        String current = episode != null && catalog.resolve(episode.currentEntry())
                .map(resolved -> resolved.model().selector().equalsIgnoreCase(choice.model().selector()))
                .orElse(false) ? episode.currentEntry() : choice.model().selector();
        CandidateScan.View view = CandidateScan.View.of(choice.model(), choice.effective())
                .withTried(health::tried)
                .withCooling(base -> health.cooling(base, now))
                .withCircuitOpen(circuitOpen)
                .withCredentials(this::hasCredential)
                .withAccountSpent(provider -> health.accountSpent(provider, now) || spent.test(provider))
                .withCredentialRejected(provider -> health.rejected(provider) || excluded.test(provider));
        return CandidateScan.scan(key, chains.candidatesAfter(key, current), catalog, view);
    }

    /** A provider with a credential (or none needed). */
    boolean hasCredential(String provider) {
        return wiring.availability().providerUsable(provider);
    }

    /** Whether {@code model} can be called now. */
    boolean usable(Model model) {
        return wiring.availability().usable(model);
    }

    /**
     * The rung to step onto: {@code first} when its circuit admits this session, else what
     * {@code rescan} finds now (the admission was lost since the scan: another session opened the
     * circuit or holds its probe; the fresh read behind the rescan sees that).
     *
     * @param orOpen when only rungs with open circuits are left, step onto the first of them (a
     *     chain never refuses a turn); else give up
     */
    Optional<Candidate> admitted(Candidate first, Supplier<CandidateScan.Scan> rescan, boolean orOpen) {
        Candidate candidate = first;
        // Each refusal is an open circuit the next read shows, so a chain is walked at most once.
        for (int left = catalog.models().size() + 1; left > 0; left--) {
            if (!(circuits.admit(candidate.model().selector()) instanceof Admission.Open)) {
                return Optional.of(candidate);
            }
            log().debug("candidate_skipped", Map.of("candidate", candidate.selector(), "skipReason", "circuit-open",
                    "chainKey", candidate.chainKey()));
            CandidateScan.Scan scan = rescan.get();
            if (scan.next().isEmpty() || (scan.circuitOpen() && !orOpen)) {
                return Optional.empty();
            }
            if (scan.circuitOpen()) {
                return scan.next();
            }
            candidate = scan.next().get();
        }
        return orOpen ? Optional.of(candidate) : Optional.empty();
    }

    /** Switches to an admitted {@code candidate} as a fallback of {@code original}. */
    void enter(Candidate candidate, Model original, ThinkingLevel originalThinking, Pins pins) {
        health.markTried(candidate.model().selector());
        episodes.start(new Episodes.Episode(candidate.chainKey(), candidate.selector(), original, originalThinking,
                ModelChoice.of(candidate.model(), candidate.thinking()).effective(), pins));
        seat.switchForFallback(candidate.model(), candidate.thinking(), original);
    }

    /** Logs {@code fallback_applied} and emits {@code retry_fallback_applied} (FALLBACK §8). */
    void announceApplied(String from, Candidate to, String reason, String limit, Object... extra) {
        Map<String, Object> data = data("from", from, "to", to.selector(), "chainKey", to.chainKey(), "reason", reason,
                "limit", limit);
        data.putAll(data(extra));
        log().info("fallback_applied", data);
        wiring.emit().accept(new AgentEvent.RetryFallbackApplied(from, to.selector(), to.chainKey(), reason, limit));
    }

    /** {@code data} without null values (a log record lists only what is known). */
    static Map<String, Object> data(Object... pairs) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                data.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return data;
    }
}
