package dev.agentd.client;

import dev.agentd.protocol.event.AgentEvent;
import java.util.HashSet;
import java.util.Set;

/**
 * What the client knows about the agent's activity, derived from the event stream alone (SPEC §5.3,
 * §9). Not thread-safe: {@link RunTracker} guards it.
 *
 * <p>Busy while any of these holds: a run is active (agent_start without agent_end); a retry chain
 * is open (auto_retry_start without auto_retry_end); a continuation is expected (agent_end with
 * willRetry, until the next agent_start or until the chain/compaction ends without one); a
 * compaction runs; a sent prompt still waits for its agent_start or its failure response; or an
 * agent_end without willRetry (older pi servers) is younger than the grace period, during which an
 * auto_retry_start or compaction_start may still follow.
 *
 * <p>A daemon that sends agent_settled (pi 1.x; agentd since it speaks pi 1.6's wire) says itself
 * when a run is over: once the client knows that, a run is busy from its agent_start until its
 * agent_settled, whatever the inference above says. Older daemons keep the inference alone.
 */
final class RunState {
    /** The daemon sends agent_settled (pi 1.x, agentd 1.6 wire): seen one, or a prompt answer with a disposition. */
    private boolean settles;
    /** An agent_start came after the last agent_settled: while {@link #settles}, busy until it comes. */
    private boolean unsettled;
    private boolean runActive;
    private boolean chainOpen;
    private boolean continuationExpected;
    private boolean compacting;
    private boolean graceArmed;
    private long graceDeadline;
    private final Set<String> pendingPrompts = new HashSet<>();

    RunState copy() {
        RunState copy = new RunState();
        copy.settles = settles;
        copy.unsettled = unsettled;
        copy.runActive = runActive;
        copy.chainOpen = chainOpen;
        copy.continuationExpected = continuationExpected;
        copy.compacting = compacting;
        copy.graceArmed = graceArmed;
        copy.graceDeadline = graceDeadline;
        copy.pendingPrompts.addAll(pendingPrompts);
        return copy;
    }

    void apply(AgentEvent event, long nowNanos, long graceNanos) {
        if (event instanceof AgentEvent.AgentSettled) {
            // The daemon's own word that nothing follows: it overrides what was inferred.
            settles = true;
            unsettled = false;
            runActive = false;
            chainOpen = false;
            continuationExpected = false;
            graceArmed = false;
        } else if (event instanceof AgentEvent.AgentStart) {
            unsettled = true;
            runActive = true;
            continuationExpected = false;
            graceArmed = false;
            pendingPrompts.clear(); // at most one prompt is accepted per idle period
        } else if (event instanceof AgentEvent.AgentEnd end) {
            runActive = false;
            continuationExpected = Boolean.TRUE.equals(end.willRetry());
            graceArmed = end.willRetry() == null;
            graceDeadline = nowNanos + graceNanos;
        } else if (event instanceof AgentEvent.AutoRetryStart) {
            chainOpen = true;
            graceArmed = false;
        } else if (event instanceof AgentEvent.AutoRetryEnd end) {
            chainOpen = false;
            if (!end.success() && !runActive) {
                continuationExpected = false; // cancelled in backoff, or failed after the last run
            }
        } else if (event instanceof AgentEvent.CompactionStart) {
            compacting = true;
            graceArmed = false;
        } else if (event instanceof AgentEvent.CompactionEnd end) {
            compacting = false;
            if (end.willRetry()) {
                continuationExpected = !runActive;
            } else if (!runActive && !chainOpen) {
                continuationExpected = false; // the announced compaction-continue will not come
            }
        }
    }

    /** A prompt answer carried a disposition: this daemon ends every run with agent_settled. */
    void settles() {
        settles = true;
    }

    void promptSent(String id) {
        pendingPrompts.add(id);
    }

    void promptSettled(String id) {
        pendingPrompts.remove(id);
    }

    boolean isIdle(long nowNanos) {
        return !runActive && !chainOpen && !continuationExpected && !compacting && pendingPrompts.isEmpty()
                && graceRemaining(nowNanos) == 0 && !(settles && unsettled);
    }

    /** Nanoseconds left in the willRetry-absent grace period (0 when none is running). */
    long graceRemaining(long nowNanos) {
        return graceArmed ? Math.max(0, graceDeadline - nowNanos) : 0;
    }

    @Override
    public String toString() {
        return "RunState[settles=" + settles + ", unsettled=" + unsettled + ", runActive=" + runActive + ", chainOpen=" + chainOpen + ", continuationExpected="
                + continuationExpected + ", compacting=" + compacting + ", graceArmed=" + graceArmed
                + ", pendingPrompts=" + pendingPrompts + "]";
    }
}
