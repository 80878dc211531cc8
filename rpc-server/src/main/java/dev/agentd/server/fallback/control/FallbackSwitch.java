package dev.agentd.server.fallback.control;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.fallback.CandidateScan;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.CooldownCause;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.Pins;
import dev.agentd.server.recovery.Candidate;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.FallbackView;
import dev.agentd.server.recovery.HintTiers;
import dev.agentd.server.recovery.RecoveryAction;
import dev.agentd.server.recovery.SwitchReason;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The end-of-run half of model fallback (FALLBACK §5.2–§5.5): builds the view the recovery
 * decision reads — the rung it would switch to, for each kind of failure — and carries out the
 * switch the decision chose. In order, a switch: notes what the failure says about the current
 * model (tried, rejected provider, spent account or model), claims the chosen rung's admission
 * (rescanning only when it was lost), opens the failed model's circuit, cools it down, switches
 * (never persisted as the default; journalled as {@code model_change{reason:"fallback"}}),
 * announces {@code retry_fallback_applied} and, for a tier-2 429, arms probe-back.
 */
public final class FallbackSwitch {
    private final Rungs rungs;
    private final ProbeBack probes;
    /** The skips of the scans behind the last view, logged with the switch that uses one of them. */
    private Map<Candidate, List<CandidateScan.Skip>> skipsBehind = Map.of();

    FallbackSwitch(Rungs rungs, ProbeBack probes) {
        this.rungs = rungs;
        this.probes = probes;
    }

    /** The limits of the 429 hint tiers in force now (FALLBACK §4). */
    public HintTiers.Limits hintLimits() {
        FallbackSettings settings = rungs.settings();
        return new HintTiers.Limits(settings.hintedWaitCapMs(), settings.probeBackMaxMs());
    }

    /** The monotonic clock the cooldowns and tier-1 deadlines are measured on. */
    public long monotonicMs() {
        return rungs.now();
    }

    /**
     * The view for one end-of-run decision: the rung for an ordinary failure, for a rejected
     * credential (its provider skipped) and for a spent account (its provider ranked last) —
     * exactly what the scan would find once the failure is noted, so the decision names the rung.
     */
    public FallbackView view() {
        synchronized (rungs) {
            FallbackSettings settings = rungs.settings();
            if (!settings.enabled()) {
                return FallbackView.NONE;
            }
            Chains chains = rungs.chains(settings);
            ModelChoice choice = rungs.seat.choice();
            boolean episode = rungs.episodes.active() != null;
            Optional<String> key = rungs.keyFor(chains, choice);
            if (key.isEmpty()) {
                return new FallbackView(true, null, null, null, null, episode, false);
            }
            long now = rungs.now();
            Predicate<String> open = rungs.circuits.openNow(); // one read of the shared store for every scan
            String own = choice.model().provider();
            Predicate<String> isOwn = provider -> provider.equalsIgnoreCase(own);
            Predicate<String> none = provider -> false;
            CandidateScan.Scan any = rungs.scan(chains, key.get(), choice, now, open, none, none);
            CandidateScan.Scan offProvider = rungs.scan(chains, key.get(), choice, now, open, isOwn, none);
            CandidateScan.Scan offAccount = rungs.scan(chains, key.get(), choice, now, open, none, isOwn);
            Map<Candidate, List<CandidateScan.Skip>> skips = new HashMap<>();
            for (CandidateScan.Scan scan : List.of(any, offProvider, offAccount)) {
                scan.next().ifPresent(candidate -> skips.putIfAbsent(candidate, scan.skips()));
            }
            skipsBehind = skips;
            return new FallbackView(true, key.get(), any.next().orElse(null), offProvider.next().orElse(null),
                    offAccount.next().orElse(null), episode, rungs.circuits.probing(choice.model().selector()));
        }
    }

    /**
     * The first step of carrying out {@code action}: notes what the failure says about the current
     * model, then claims the rung the decision chose. Only when that rung's circuit no longer admits
     * this session (another session opened it or took its probe since the view was read) does it
     * look again; with nothing else left it keeps the decided rung, as a chain never refuses a turn.
     * So a decided switch always happens: the run's one {@code agent_end} can say it will retry.
     */
    public Candidate claim(RecoveryAction.SwitchModel action) {
        synchronized (rungs) {
            ModelChoice choice = rungs.seat.choice();
            Model from = choice.model();
            rungs.health.noteFailure(action.classification(), action.retryAfterMs(), from, rungs.now());
            rungs.health.markTried(from.selector());
            Chains chains = rungs.chains(rungs.settings());
            String key = action.to().chainKey();
            Predicate<String> none = provider -> false;
            return rungs.admitted(action.to(), () -> rungs.scan(chains, key, choice, rungs.now(),
                    rungs.circuits.openNow(), none, none), true).orElse(action.to());
        }
    }

    /** Carries out the switch to {@code to}, a rung {@link #claim} admitted (FALLBACK §5.3). */
    public void apply(RecoveryAction.SwitchModel action, Candidate to) {
        synchronized (rungs) {
            ModelChoice choice = rungs.seat.choice();
            String base = choice.model().selector();
            skipsBehind.getOrDefault(to, List.of()).forEach(skip -> rungs.log().debug("candidate_skipped",
                    Map.of("candidate", skip.candidate(), "skipReason", skip.reason().wire(), "chainKey",
                            to.chainKey())));
            rungs.circuits.failed(base, action.classification(), action.reason(), action.retryAfterMs());
            if (action.reason() != SwitchReason.REFUSAL) {
                // A refusal says nothing about the model's health: it does not cool down.
                CooldownCause cause = CooldownRules.of(action.classification());
                long hint = action.retryAfterMs() == null ? 0 : action.retryAfterMs();
                long duration = rungs.health.cool(base, cause, hint, rungs.now());
                rungs.log().info("cooldown_noted", Rungs.data("selector", base, "durationMs", duration,
                        "errorMessage", action.errorMessage()));
            }
            Episodes.Episode episode = rungs.episodes.active();
            Model original = episode != null ? episode.original() : choice.model();
            ThinkingLevel originalThinking = episode != null ? episode.originalThinking() : choice.preferred();
            Pins pins = (episode != null ? episode.pins() : Pins.NONE)
                    .afterSwitch(action.reason(), action.limit(), base, original.selector());
            rungs.enter(to, original, originalThinking, pins);
            rungs.announceApplied(base, to, action.reason().wire(), action.limit() == null ? null
                    : action.limit().wire(), "errorMessage", action.errorMessage());
            if (action.probeBack() && action.retryAfterMs() != null) {
                armProbeBack(original, action.retryAfterMs());
            }
        }
    }

    /** A tier-2 switch: probe the episode's original back within the hint (skipped when it cannot be called). */
    private void armProbeBack(Model original, long hintMs) {
        if (!rungs.usable(original)) {
            return;
        }
        probes.arm(original, hintMs);
        rungs.log().info("probe_back_armed", Rungs.data("selector", original.selector(), "retryAfterMs", hintMs));
    }

    /**
     * A wanted switch found no rung: the failure still marks a spent account or model (so a
     * stranded fallback reverts at the next boundary, §5.3) and may open the model's circuit; it is
     * logged (the event is the executor's).
     */
    public void exhausted(RecoveryAction.FallbackExhausted action) {
        synchronized (rungs) {
            Model current = rungs.seat.choice().model();
            Classification classification = action.classification();
            if (classification != null) {
                rungs.health.noteFailure(classification, action.retryAfterMs(), current, rungs.now());
                rungs.circuits.failed(current.selector(), classification, null, action.retryAfterMs());
            }
            rungs.log().warn("fallback_exhausted", Rungs.data("chainKey", action.chainKey(), "errorMessage",
                    action.lastError()));
        }
    }

    /** A reply succeeded while a chain was open: the success event of an episode, if one is active. */
    public Optional<AgentEvent.RetryFallbackSucceeded> succeeded() {
        Episodes.Episode episode = rungs.episodes.active();
        if (episode == null) {
            return Optional.empty();
        }
        String model = rungs.seat.choice().model().selector();
        rungs.log().info("fallback_succeeded", Rungs.data("model", model, "chainKey", episode.chainKey()));
        return Optional.of(new AgentEvent.RetryFallbackSucceeded(model, episode.chainKey()));
    }

    /** Any successful reply: the circuit of the model that gave it closes (FALLBACK §6). */
    public void replySucceeded() {
        rungs.circuits.succeeded(rungs.seat.choice().model().selector());
    }

    /** A compaction rewrote the context: a refusal pin is released (billing pins never are). */
    public void compactionApplied() {
        Episodes.Episode before = rungs.episodes.compacted();
        if (before != null && before.pins().byRefusal()) {
            rungs.log().info("refusal_pin_released", Rungs.data("chainKey", before.chainKey(), "originalSelector",
                    before.original().selector(), "trigger", "compaction"));
        }
    }
}
