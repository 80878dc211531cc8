package dev.agentd.server.session;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.fallback.Candidate;
import dev.agentd.server.fallback.CandidateScan;
import dev.agentd.server.fallback.Catalog;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.ChainsMemo;
import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.Pins;
import dev.agentd.server.fallback.RevertRule;
import dev.agentd.server.fallback.SwitchReason;
import dev.agentd.server.recovery.CooldownCauses;
import dev.agentd.server.recovery.FallbackView;
import dev.agentd.server.recovery.RecoveryAction;
import dev.agentd.server.state.Admission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session's model-fallback controller (FALLBACK §5; docs/ARCHITECTURE.md §4): the only impure
 * part of fallback. It holds the episode in progress and, in {@link ModelHealth}, the turn's
 * tried set, rejected providers and the session's cooldowns (monotonic clock, jitter from the
 * session's random source); it asks the pure pieces ({@link CandidateScan}, {@link Pins},
 * {@link RevertRule}) and carries their answers out through {@link ModelControl} (never persisted
 * as the default; journalled as {@code model_change{reason:"fallback"}}), the event bus and
 * {@code fallback.log}. The failed model joins the tried set, so a chain never loops back within a
 * turn. Circuits (FALLBACK §6) are asked through {@link CircuitAccess}, in the methods of the
 * "circuits" section; probe-back runs in {@link ProbeBack}.
 * Turn state is guarded by {@code this}; the episode is an atomic reference (see {@link #active}).
 */
public final class FallbackControl {
    private static final Logger LOG = LoggerFactory.getLogger(FallbackControl.class);

    /** The episode in progress (FALLBACK §5.1). {@code lastApplied} is null once the user changed the level. */
    private record Episode(String chainKey, String currentEntry, Model original, ThinkingLevel originalThinking,
            ThinkingLevel lastApplied, Pins pins) {}

    private final SessionContext context;
    private final ModelControl models;
    private final FallbackServices services;
    private final Consumer<AgentEvent> emit;
    private final Catalog catalog;
    private final ChainsMemo memo = new ChainsMemo();
    private final ModelHealth health;
    private final CircuitAccess circuits;
    /**
     * Written by the run thread under {@code this} and, lock-free, by user model changes: those
     * arrive under ModelControl's write lock, which a switch made here holds while it notifies, so
     * taking {@code this} there could deadlock. A switch therefore publishes its episode before
     * switching, and a later user change clears it.
     */
    private final AtomicReference<Episode> active = new AtomicReference<>();
    /** Probe-back (FALLBACK §5.5), on its own thread. */
    private final ProbeBack probes;

    /**
     * @param probe sends one probe request to a demoted model (FALLBACK §5.5)
     * @param sessionId names this session's circuit leases
     */
    FallbackControl(SessionContext context, ModelControl models, FallbackServices services, Consumer<AgentEvent> emit,
            ProbeBack.Probe probe, java.util.function.Supplier<String> sessionId) {
        this.context = context;
        this.models = models;
        this.services = services;
        this.emit = emit;
        this.catalog = Catalog.of(context.models());
        this.health = new ModelHealth(context.random());
        this.circuits = new CircuitAccess(services.state().circuits(), sessionId, () -> context.settings().current(),
                this::settings, services.log(), emit);
        this.probes = ProbeBack.onOwnThread(context.scheduler(), probe, emit, this::probeSucceeded);
    }

    /** A model-control observer that also tells this controller about user changes. */
    static ModelControl.Observer watching(ModelControl.Observer inner, java.util.function.Supplier<FallbackControl> self) {
        return new ModelControl.Observer() {
            @Override
            public void modelChanged(ModelControl.Switched change) {
                inner.modelChanged(change);
                FallbackControl control = self.get();
                if (control != null && !change.source().fallback()) {
                    control.clearForModelChange(change.now().model(), change.source());
                }
            }

            @Override
            public void thinkingChanged(ModelChoice now) {
                inner.thinkingChanged(now);
                FallbackControl control = self.get();
                if (control != null) {
                    control.noteManualThinkingLevel();
                }
            }

            @Override
            public void effectiveThinkingChanged(ThinkingLevel level) {
                inner.effectiveThinkingChanged(level);
            }
        };
    }

    // --- what the decision sees ----------------------------------------------------------------

    FallbackSettings settings() {
        return services.settings(context.settings().current());
    }

    private Chains chains(FallbackSettings settings) {
        return memo.get(settings.chains(), catalog, this::hasCredential);
    }

    /** The view for one end-of-run decision. */
    synchronized FallbackView view() {
        FallbackSettings settings = settings();
        if (!settings.enabled()) {
            return FallbackView.NONE;
        }
        Chains chains = chains(settings);
        ModelChoice choice = models.choice();
        Episode episode = active.get();
        Optional<String> key = chains.keyFor(choice.model(), choice.effective(), episodeKey(episode));
        if (key.isEmpty()) {
            return new FallbackView(true, null, false, false, episode != null);
        }
        long now = context.scheduler().monotonicMs();
        Predicate<String> open = circuits.openNow(); // one read of the shared store for both scans
        boolean any = scan(chains, key.get(), choice, episode, now, open, false).next().isPresent();
        boolean offProvider = any && scan(chains, key.get(), choice, episode, now, open, true).next().isPresent();
        return new FallbackView(true, key.get(), any, offProvider, episode != null,
                circuits.probing(choice.model().selector()));
    }

    private static String episodeKey(Episode episode) {
        return episode == null ? null : episode.chainKey();
    }

    private CandidateScan.Scan scan(Chains chains, String key, ModelChoice choice, Episode episode, long now,
            Predicate<String> circuitOpen, boolean skipOwnProvider) {
        // The entry the episode switched to names its thinking level; a model changed since then does not.
        String current = episode != null && catalog.resolve(episode.currentEntry())
                .map(resolved -> resolved.model().selector().equalsIgnoreCase(choice.model().selector()))
                .orElse(false) ? episode.currentEntry() : choice.model().selector();
        String ownProvider = choice.model().provider();
        CandidateScan.View view = CandidateScan.View.of(choice.model(), choice.effective())
                .withTried(health::tried)
                .withCooling(base -> health.cooling(base, now))
                .withCircuitOpen(circuitOpen)
                .withCredentials(this::hasCredential)
                .withAccountSpent(provider -> health.accountSpent(provider, now))
                .withCredentialRejected(provider -> health.rejected(provider)
                        || (skipOwnProvider && provider.equalsIgnoreCase(ownProvider)));
        return CandidateScan.scan(key, chains.candidatesAfter(key, current), catalog, view);
    }

    private boolean hasCredential(String provider) {
        return catalog.models().stream().filter(model -> model.provider().equals(provider)).findFirst()
                .map(models::usable).orElse(false);
    }

    // --- switching -----------------------------------------------------------------------------

    /**
     * Carries out a switch the policy decided (FALLBACK §5.3): marks what the failure says about
     * the current model, scans, switches, and announces {@code retry_fallback_applied}.
     *
     * @return false when no rung is left after all (the settings changed since the decision)
     */
    synchronized boolean apply(RecoveryAction.SwitchModel action) {
        FallbackSettings settings = settings();
        Chains chains = chains(settings);
        ModelChoice choice = models.choice();
        Model from = choice.model();
        Episode episode = active.get();
        Optional<String> key = chains.keyFor(from, choice.effective(), episodeKey(episode));
        if (!settings.enabled() || key.isEmpty()) {
            return false;
        }
        long now = context.scheduler().monotonicMs();
        String base = from.selector();
        noteFailure(action, from, now);
        health.markTried(base);
        CandidateScan.Scan scan = scan(chains, key.get(), choice, episode, now, circuits.openNow(), false);
        scan.skips().forEach(skip -> services.log().debug("candidate_skipped", Map.of("candidate", skip.candidate(),
                "skipReason", skip.reason().wire(), "chainKey", key.get())));
        if (scan.next().isEmpty()) {
            return false;
        }
        Candidate candidate = scan.next().get();
        circuits.failed(base, action.classification(), action.reason(), action.retryAfterMs());
        if (action.reason() != SwitchReason.REFUSAL) {
            // A refusal says nothing about the model's health: it does not cool down.
            CooldownCause cause = CooldownCauses.of(action.classification(), action.errorMessage());
            long hint = action.retryAfterMs() == null ? 0 : action.retryAfterMs();
            long duration = health.cool(base, cause, hint, now);
            services.log().info("cooldown_noted", data("selector", base, "durationMs", duration,
                    "errorMessage", action.errorMessage()));
        }
        Model original = episode != null ? episode.original() : from;
        ThinkingLevel originalThinking = episode != null ? episode.originalThinking() : choice.preferred();
        Pins pins = (episode != null ? episode.pins() : Pins.NONE)
                .afterSwitch(action.reason(), action.limit(), base, original.selector());
        enter(candidate, original, originalThinking, pins);
        String limit = action.limit() == null ? null : action.limit().wire();
        services.log().info("fallback_applied", data("from", base, "to", candidate.selector(), "chainKey",
                candidate.chainKey(), "reason", action.reason().wire(), "limit", limit,
                "errorMessage", action.errorMessage()));
        emit.accept(new AgentEvent.RetryFallbackApplied(base, candidate.selector(), candidate.chainKey(),
                action.reason().wire(), limit));
        if (action.probeBack() && action.retryAfterMs() != null) {
            armProbeBack(original, action.retryAfterMs());
        }
        return true;
    }

    // --- probe-back (FALLBACK §5.5) --------------------------------------------------------------

    /** A tier-2 switch: probe the episode's original back within the hint (skipped when it cannot be called). */
    private void armProbeBack(Model original, long hintMs) {
        if (catalog.find(original.provider(), original.id()).isEmpty() || !models.usable(original)) {
            return;
        }
        probes.arm(original, hintMs);
        services.log().info("probe_back_armed", data("selector", original.selector(), "retryAfterMs", hintMs));
    }

    /** A probe answered: the cooldown ends and the circuit closes, so the next turn boundary reverts. */
    private void probeSucceeded(Model model) {
        health.recovered(model.selector());
        services.log().info("probe_back_cleared", data("selector", model.selector()));
        circuits.succeeded(model.selector());
    }

    /** The monotonic clock the cooldowns and tier-1 deadlines are measured on. */
    long monotonicMs() {
        return context.scheduler().monotonicMs();
    }

    /** The session closes: no probe runs any more. */
    void close() {
        probes.close();
    }

    /** Switches to {@code candidate} as a fallback of {@code original} and asks for its admission. */
    private void enter(Candidate candidate, Model original, ThinkingLevel originalThinking, Pins pins) {
        health.markTried(candidate.model().selector());
        active.set(new Episode(candidate.chainKey(), candidate.selector(), original, originalThinking,
                ModelChoice.of(candidate.model(), candidate.thinking()).effective(), pins));
        models.switchTo(candidate.model(), candidate.thinking(), ModelControl.Source.FALLBACK, false, original);
        circuits.admit(candidate.model().selector()); // a half-open entry: this session probes it
    }

    private void noteFailure(RecoveryAction.SwitchModel action, Model from, long now) {
        health.noteFailure(action.classification(), action.retryAfterMs(), from, now);
    }

    /**
     * A wanted switch found no rung: the failure still marks a spent account or model (so a
     * stranded fallback reverts at the next boundary, §5.3), and is logged (the event is the carrier's).
     */
    synchronized void noteExhausted(RecoveryAction.FallbackExhausted action) {
        if (action.classification() != null) {
            health.noteFailure(action.classification(), action.retryAfterMs(), models.current(),
                    context.scheduler().monotonicMs());
            circuits.failed(models.current().selector(), action.classification(), null, action.retryAfterMs());
        }
        services.log().warn("fallback_exhausted", data("chainKey", action.chainKey(), "errorMessage",
                action.lastError()));
    }

    /** A reply succeeded while a chain was open: the success event of an episode, if one is active. */
    Optional<AgentEvent.RetryFallbackSucceeded> succeeded() {
        Episode episode = active.get();
        if (episode == null) {
            return Optional.empty();
        }
        services.log().info("fallback_succeeded", data("model", models.current().selector(), "chainKey",
                episode.chainKey()));
        return Optional.of(new AgentEvent.RetryFallbackSucceeded(models.current().selector(), episode.chainKey()));
    }

    // --- turn boundaries -----------------------------------------------------------------------

    /** A new user message: a fresh tried set and no rejected providers (FALLBACK §5.1). */
    synchronized void resetTurn() {
        health.resetTurn();
    }

    /**
     * The before-attempt boundary (prompt start, after each backoff): reverts to the original when
     * {@link RevertRule} says so. Never throws: a failed revert drops the episode and is logged.
     */
    synchronized void beforeAttempt() {
        Episode episode = active.get();
        if (episode != null) {
            try {
                revertIfDue(episode);
            } catch (RuntimeException e) {
                LOG.warn("fallback revert failed: {}", e.toString());
                active.set(null);
            }
        }
        try {
            circuitBoundary();
        } catch (RuntimeException e) {
            LOG.warn("circuit check failed: {}", e.toString());
        }
    }

    private void revertIfDue(Episode episode) {
        long now = context.scheduler().monotonicMs();
        Model current = models.current();
        Model original = episode.original();
        boolean originalUsable = catalog.find(original.provider(), original.id()).isPresent()
                && models.usable(original) && !health.unusable(original, now);
        long coolingUntil = now + health.coolingMs(original.selector(), now);
        RevertRule.Facts facts = new RevertRule.Facts(true, episode.pins(), originalUsable, health.unusable(current, now),
                coolingUntil == now ? 0 : coolingUntil, circuits.revertView(original.selector()));
        RevertRule.Decision decision = RevertRule.decide(facts, settings().revertPolicy(), now);
        String cause;
        if (decision instanceof RevertRule.RevertAtOnce atOnce) {
            cause = atOnce.cause();
        } else if (decision instanceof RevertRule.Revert) {
            cause = null;
        } else {
            return;
        }
        ThinkingLevel thinking = RevertRule.thinkingOnRevert(models.thinkingLevel(), episode.lastApplied(),
                episode.originalThinking());
        if (!active.compareAndSet(episode, null)) {
            return; // the user chose a model meanwhile
        }
        models.switchTo(original, thinking, ModelControl.Source.FALLBACK_REVERT, false, original);
        services.log().info("fallback_reverted", data("from", current.selector(), "to", original.selector(),
                "chainKey", episode.chainKey(), "trigger", cause == null ? "cooldown-expiry" : cause));
        emit.accept(new AgentEvent.RetryFallbackReverted(current.selector(), original.selector(), cause));
    }

    /** A compaction rewrote the context: a refusal pin is released (billing pins never are). */
    void compactionApplied() {
        Episode before = active.getAndUpdate(episode -> episode == null ? null
                : new Episode(episode.chainKey(), episode.currentEntry(), episode.original(),
                        episode.originalThinking(), episode.lastApplied(), episode.pins().afterCompaction()));
        if (before != null && before.pins().byRefusal()) {
            services.log().info("refusal_pin_released", data("chainKey", before.chainKey(), "originalSelector",
                    before.original().selector(), "trigger", "compaction"));
        }
    }

    /** The user (set_model, cycle_model) or a resumed session chose a model: the episode ends (§5.3). */
    void clearForModelChange(Model chosen, ModelControl.Source source) {
        probes.cancel();
        if (active.getAndSet(null) != null) {
            services.log().info("fallback_cleared_manual", data("selector", chosen.selector(), "trigger", source.wire()));
        }
        health.chosen(chosen);
        if (source == ModelControl.Source.SET || source == ModelControl.Source.CYCLE) {
            circuits.chosenByUser(chosen.selector());
        } else {
            circuits.release();
        }
    }

    void noteManualThinkingLevel() {
        active.updateAndGet(episode -> episode == null ? null : new Episode(episode.chainKey(),
                episode.currentEntry(), episode.original(), episode.originalThinking(), null, episode.pins()));
    }

    /** A new or switched session file: no episode, no turn state (cooldowns are the session's, kept). */
    synchronized void reset() {
        probes.cancel();
        active.set(null);
        circuits.release();
        resetTurn();
    }

    // --- circuits (FALLBACK §6) ----------------------------------------------------------------

    /** Any successful reply: the circuit of the model that gave it closes. */
    void replySucceeded() {
        circuits.succeeded(models.current().selector());
    }

    /**
     * The circuit part of a turn boundary, for chain-managed models only: the current entry's
     * admission claims the probe of a half-open circuit; an open one is left for the first closed
     * candidate ({@code circuit_open_skip}, applied as a transient switch without a cooldown or an
     * opening); with nothing closed the session stays, as a chain never refuses a turn.
     */
    private void circuitBoundary() {
        FallbackSettings settings = settings();
        if (!settings.enabled() || !circuits.enabled()) {
            return;
        }
        Chains chains = chains(settings);
        ModelChoice choice = models.choice();
        Episode episode = active.get();
        Optional<String> key = chains.keyFor(choice.model(), choice.effective(), episodeKey(episode));
        String base = choice.model().selector();
        if (key.isEmpty() || !(circuits.admit(base) instanceof Admission.Open)) {
            return;
        }
        CandidateScan.Scan scan = scan(chains, key.get(), choice, episode, context.scheduler().monotonicMs(),
                circuits.openNow(), false);
        if (scan.next().isEmpty() || scan.circuitOpen()) {
            return;
        }
        Candidate candidate = scan.next().get();
        services.log().info("circuit_open_skip", data("selector", base, "to", candidate.selector(), "chainKey",
                candidate.chainKey()));
        health.markTried(base);
        enter(candidate, episode != null ? episode.original() : choice.model(),
                episode != null ? episode.originalThinking() : choice.preferred(),
                episode != null ? episode.pins() : Pins.NONE);
        String reason = SwitchReason.TRANSIENT.wire();
        services.log().info("fallback_applied", data("from", base, "to", candidate.selector(), "chainKey",
                candidate.chainKey(), "reason", reason, "trigger", "circuit-open"));
        emit.accept(new AgentEvent.RetryFallbackApplied(base, candidate.selector(), candidate.chainKey(), reason, null));
    }

    // --- commands (FALLBACK §9) ----------------------------------------------------------------

    /** {@code get_fallback_state}. */
    public synchronized Results.FallbackState state() {
        FallbackSettings settings = settings();
        long now = context.scheduler().monotonicMs();
        Episode episode = this.active.get();
        Results.FallbackEpisode active = episode == null ? null : new Results.FallbackEpisode(episode.chainKey(),
                episode.original().selector(), episode.pins().pinned(), episode.pins().reason());
        List<Results.FallbackCooldown> cooling = health.listed(now);
        return new Results.FallbackState(settings.enabled(), settings.revertPolicy().wire(),
                chains(settings).asMap(), active, cooling, circuits.listed(),
                services.warnings(context.settings().current(), catalog), store());
    }

    private Results.FallbackStore store() {
        var status = services.state().status();
        return new Results.FallbackStore(status.kind(), status.shared(), status.warning().orElse(null));
    }

    /** Validation warnings for {@code entries} as the chain {@code key} (empty = it may be saved). */
    List<String> validate(String key, List<String> entries) {
        var node = dev.agentd.protocol.json.Json.mapper().createObjectNode();
        var array = node.putArray(key);
        entries.forEach(array::add);
        return Chains.validate(node, catalog);
    }

    /** {@code data} without null values (a log record lists only what is known). */
    private static Map<String, Object> data(Object... pairs) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                data.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return data;
    }

}
