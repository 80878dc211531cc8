package dev.agentd.server.fallback.control;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelChoice;
import dev.agentd.server.fallback.CandidateScan;
import dev.agentd.server.fallback.Chains;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.Pins;
import dev.agentd.server.fallback.PreemptiveSwitch;
import dev.agentd.server.fallback.RevertRule;
import dev.agentd.server.recovery.Candidate;
import dev.agentd.server.recovery.SwitchReason;
import dev.agentd.server.runtime.LogText;
import dev.agentd.server.state.Admission;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turn-boundary half of model fallback: before every attempt (a prompt's start, the end of each
 * backoff) the episode may revert to its original ({@link RevertRule}, FALLBACK §5.3), and a
 * chain-managed model whose shared circuit is open is left for the first closed rung (FALLBACK §6).
 * It also takes the session's other boundaries: a new user message, a new session file, and a
 * model the user chose — which ends the episode at once and hands the circuit's store work to the
 * session's run thread, so the command reader never waits for a store.
 */
public final class TurnBoundary {
    private static final Logger LOG = LoggerFactory.getLogger(TurnBoundary.class);

    /** The {@code reason} of a pre-emptive switch's {@code retry_fallback_applied}. */
    static final String QUOTA = "quota";

    private final Rungs rungs;
    private final ProbeBack probes;

    TurnBoundary(Rungs rungs, ProbeBack probes) {
        this.rungs = rungs;
        this.probes = probes;
    }

    /** A new user message: a fresh tried set and no rejected providers (FALLBACK §5.1). */
    public void resetTurn() {
        synchronized (rungs) {
            rungs.health.resetTurn();
        }
    }

    /**
     * The before-attempt boundary: reverts when due, then skips an open circuit. Never throws: a
     * failed revert drops the episode and is logged. Run thread only.
     */
    public void beforeAttempt() {
        synchronized (rungs) {
            Episodes.Episode episode = rungs.episodes.active();
            if (episode != null) {
                try {
                    revertIfDue(episode);
                } catch (RuntimeException e) {
                    LOG.warn("fallback revert failed: {}", LogText.clip(e.toString()));
                    rungs.episodes.clear();
                }
            }
            try {
                circuitBoundary();
            } catch (RuntimeException e) {
                LOG.warn("circuit check failed: {}", LogText.clip(e.toString()));
            }
            try {
                preemptiveBoundary();
            } catch (RuntimeException e) {
                LOG.warn("pre-emptive switch check failed: {}", LogText.clip(e.toString()));
            }
        }
    }

    private void revertIfDue(Episodes.Episode episode) {
        long now = rungs.now();
        Model current = rungs.seat.choice().model();
        Model original = episode.original();
        // an original still above retry.preemptiveSwitchAt is not usable yet: reverting would only leave it again
        boolean originalUsable = rungs.usable(original) && !rungs.health.unusable(original, now)
                && !hot(original.selector(), PreemptiveSwitch.threshold(rungs.wiring.settings().get()));
        long coolingUntil = now + rungs.health.coolingMs(original.selector(), now);
        RevertRule.Facts facts = new RevertRule.Facts(true, episode.pins(), originalUsable,
                rungs.health.unusable(current, now), coolingUntil == now ? 0 : coolingUntil,
                rungs.circuits.revertView(original.selector()));
        RevertRule.Decision decision = RevertRule.decide(facts, rungs.settings().revertPolicy(), now);
        decision.accept(new RevertRule.Handler<Void>() {
            @Override
            public Void stay(RevertRule.Stay stay) {
                return null;
            }

            @Override
            public Void revert(RevertRule.Revert revert) {
                revertTo(episode, current, null, revert.claimProbe());
                return null;
            }

            @Override
            public Void revertAtOnce(RevertRule.RevertAtOnce atOnce) {
                revertTo(episode, current, atOnce.cause(), false);
                return null;
            }
        });
    }

    /**
     * @param cause the revert's trigger on the wire (null: the original's cooldown or circuit expired)
     * @param halfOpen the original's circuit is half-open: the admission that follows claims its probe
     */
    private void revertTo(Episodes.Episode episode, Model current, String cause, boolean halfOpen) {
        Model original = episode.original();
        ThinkingLevel thinking = RevertRule.thinkingOnRevert(rungs.seat.choice().effective(), episode.lastApplied(),
                episode.originalThinking());
        if (!rungs.episodes.end(episode)) {
            return; // the user chose a model meanwhile
        }
        rungs.seat.revertTo(original, thinking);
        rungs.log().info("fallback_reverted", Rungs.data("from", current.selector(), "to", original.selector(),
                "chainKey", episode.chainKey(), "trigger", cause == null ? "cooldown-expiry" : cause,
                "circuit", halfOpen ? "half-open" : null));
        rungs.wiring.emit().accept(new AgentEvent.RetryFallbackReverted(current.selector(), original.selector(), cause));
    }

    /**
     * The circuit part of a turn boundary, for chain-managed models only: the current entry's
     * admission claims the probe of a half-open circuit; an open one is left for the first closed
     * rung that admits this session ({@code circuit_open_skip}, applied as a transient switch
     * without a cooldown or an opening); with nothing closed the session stays, as a chain never
     * refuses a turn.
     */
    private void circuitBoundary() {
        FallbackSettings settings = rungs.settings();
        if (!settings.enabled() || !rungs.circuits.enabled()) {
            return;
        }
        Chains chains = rungs.chains(settings);
        ModelChoice choice = rungs.seat.choice();
        Optional<String> key = rungs.keyFor(chains, choice);
        String base = choice.model().selector();
        if (key.isEmpty() || !(rungs.circuits.admit(base) instanceof Admission.Open)) {
            return;
        }
        Predicate<String> none = provider -> false;
        CandidateScan.Scan scan = rungs.scan(chains, key.get(), choice, rungs.now(), rungs.circuits.openNow(), none,
                none);
        if (scan.next().isEmpty() || scan.circuitOpen()) {
            return;
        }
        Optional<Candidate> admitted = rungs.admitted(scan.next().get(), () -> rungs.scan(chains, key.get(), choice,
                rungs.now(), rungs.circuits.openNow(), none, none), false);
        if (admitted.isEmpty()) {
            return;
        }
        Candidate candidate = admitted.get();
        rungs.log().info("circuit_open_skip", Rungs.data("selector", base, "to", candidate.selector(), "chainKey",
                candidate.chainKey()));
        rungs.health.markTried(base);
        Episodes.Episode episode = rungs.episodes.active();
        rungs.enter(candidate, episode != null ? episode.original() : choice.model(),
                episode != null ? episode.originalThinking() : choice.preferred(),
                episode != null ? episode.pins() : Pins.NONE);
        rungs.announceApplied(base, candidate, SwitchReason.TRANSIENT.wire(), null, "trigger", "circuit-open");
    }

    /**
     * The pre-emptive part of a turn boundary (FALLBACK §6.1), for chain-managed models only: when
     * {@code retry.preemptiveSwitchAt} is set and the current model's rate-limit window is fuller,
     * the session moves to the first rung that is neither open nor itself above it, announced as
     * any switch ({@code retry_fallback_applied}, reason {@code quota}). With no such rung it stays.
     */
    private void preemptiveBoundary() {
        FallbackSettings settings = rungs.settings();
        OptionalDouble threshold = PreemptiveSwitch.threshold(rungs.wiring.settings().get());
        if (!settings.enabled() || threshold.isEmpty()) {
            return;
        }
        Chains chains = rungs.chains(settings);
        ModelChoice choice = rungs.seat.choice();
        Optional<String> key = rungs.keyFor(chains, choice);
        String base = choice.model().selector();
        if (key.isEmpty() || !hot(base, threshold)) {
            return;
        }
        Predicate<String> none = provider -> false;
        // a rung above the threshold is graded like an open circuit: taken only if nothing else is
        Predicate<String> unwanted = rungs.circuits.openNow().or(selector -> hot(selector, threshold));
        Supplier<CandidateScan.Scan> scan = () -> rungs.scan(chains, key.get(), choice, rungs.now(), unwanted, none,
                none);
        CandidateScan.Scan first = scan.get();
        if (first.next().isEmpty() || first.circuitOpen()) {
            return;
        }
        Optional<Candidate> admitted = rungs.admitted(first.next().get(), scan, false);
        if (admitted.isEmpty()) {
            return;
        }
        Candidate candidate = admitted.get();
        rungs.log().info("preemptive_switch", Rungs.data("selector", base, "to", candidate.selector(), "chainKey",
                candidate.chainKey(), "utilization", rungs.wiring.utilization().apply(base).orElse(-1),
                "threshold", threshold.getAsDouble()));
        rungs.health.markTried(base);
        Episodes.Episode episode = rungs.episodes.active();
        rungs.enter(candidate, episode != null ? episode.original() : choice.model(),
                episode != null ? episode.originalThinking() : choice.preferred(),
                episode != null ? episode.pins() : Pins.NONE);
        rungs.announceApplied(base, candidate, QUOTA, null, "trigger", "preemptive");
    }

    private boolean hot(String selector, OptionalDouble threshold) {
        return PreemptiveSwitch.due(rungs.wiring.utilization().apply(selector), threshold);
    }

    /**
     * The user ({@code set_model}, {@code cycle_model}) or a resumed session chose {@code chosen}:
     * the episode and any probe-back end now, and whatever kept the model out is forgotten (§5.3).
     * Called on the command reader under the model's write lock: the circuit's store work (the
     * user's choice closes its circuit; any lease is given back) runs later on the run thread.
     *
     * @param byUser a user's command (its circuit closes), not a resume
     */
    public void modelChosen(Model chosen, boolean byUser, String trigger) {
        probes.cancel();
        if (rungs.episodes.clear() != null) {
            rungs.log().info("fallback_cleared_manual", Rungs.data("selector", chosen.selector(), "trigger", trigger));
        }
        rungs.health.chosen(chosen);
        Runnable storeWork = byUser ? () -> rungs.circuits.chosenByUser(chosen.selector()) : rungs.circuits::release;
        try {
            rungs.wiring.storeWork().execute(storeWork);
        } catch (RejectedExecutionException e) {
            LOG.debug("session closed; the circuit work of a model change is dropped");
        }
    }

    /** The user changed the thinking level: a revert keeps their level. */
    public void thinkingChosen() {
        rungs.episodes.userChangedThinking();
    }

    /** A new or switched session file: no episode, no turn state (cooldowns are the session's, kept). */
    public void reset() {
        synchronized (rungs) {
            probes.cancel();
            rungs.episodes.clear();
            rungs.circuits.release();
            rungs.health.resetTurn();
        }
    }
}
