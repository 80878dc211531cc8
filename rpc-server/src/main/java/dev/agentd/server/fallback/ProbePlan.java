package dev.agentd.server.fallback;

import java.util.ArrayList;
import java.util.List;

/**
 * A session's probe-back plan (FALLBACK §5.5), pure: a state machine on the caller's monotonic
 * clock that says what to do ({@link Effect}s) and never does it. After a tier-2 429 demoted
 * {@code selector}, probe 1 is due at {@code now + ceil(hint/2)} and probe 2 at the hint's deadline;
 * the first success ends the plan. Never two probes in flight: the deadline aborts a probe 1 still
 * running before probe 2 starts. Every step carries the plan's {@code generation}, so a timer or a
 * result of a superseded or cancelled plan changes nothing.
 *
 * @param inFlight the running probe's index (1 or 2), 0 when none runs
 * @param secondAnnounced {@code retry_probe_scheduled{probeIndex:2}} went out (it goes out once)
 */
public record ProbePlan(String selector, long generation, long firstAtMs, long deadlineMs, Stage stage,
        int inFlight, boolean secondAnnounced) {

    /** No plan armed (yet, or any more). */
    public static final ProbePlan NONE = new ProbePlan(null, 0, 0, 0, Stage.DONE, 0, false);

    public enum Stage {
        /** Probe 1 is due at {@code firstAtMs} (or running). */
        FIRST,
        /** Probe 1 failed or was cut off: probe 2 is due at {@code deadlineMs} (or running). */
        SECOND,
        /** Succeeded, both failed, superseded or cancelled: nothing more happens. */
        DONE
    }

    /** The plan's two timers, armed together when it is armed. */
    public enum Timer { FIRST, DEADLINE }

    /** What the controller carries out, in order, through a {@link Handler} (a new kind cannot be dropped). */
    public sealed interface Effect {
        <R> R accept(Handler<R> handler);

        /** One method per kind of effect. */
        interface Handler<R> {
            R announce(Announce announce);

            R launch(Launch launch);

            R abort(Abort abort);

            R report(Report report);

            R cleared(Cleared cleared);
        }

        /** Emit {@code retry_probe_scheduled{selector, atMs, probeIndex}} ({@code atMs} on this clock). */
        record Announce(int probeIndex, long atMs) implements Effect {
            @Override
            public <R> R accept(Handler<R> handler) {
                return handler.announce(this);
            }
        }

        /** Start probe {@code probeIndex} (off the scheduler's thread). */
        record Launch(int probeIndex) implements Effect {
            @Override
            public <R> R accept(Handler<R> handler) {
                return handler.launch(this);
            }
        }

        /** Abort the probe in flight; its late result is ignored. */
        record Abort(int probeIndex) implements Effect {
            @Override
            public <R> R accept(Handler<R> handler) {
                return handler.abort(this);
            }
        }

        /** Emit {@code retry_probe_result{selector, ok, errorMessage?}}. */
        record Report(int probeIndex, boolean ok, String errorMessage) implements Effect {
            @Override
            public <R> R accept(Handler<R> handler) {
                return handler.report(this);
            }
        }

        /** The demoted model answered: clear its cooldown and close its circuit. */
        record Cleared() implements Effect {
            @Override
            public <R> R accept(Handler<R> handler) {
                return handler.cleared(this);
            }
        }
    }

    /** A transition: the plan after it and what to do. */
    public record Step(ProbePlan plan, List<Effect> effects) {
        public Step {
            effects = List.copyOf(effects);
        }
    }

    public boolean armed() {
        return stage != Stage.DONE;
    }

    /**
     * Arms a plan for {@code selector} demoted with a {@code hintMs} wait at {@code nowMs}; an armed
     * plan is superseded (its probe in flight aborted). Announces probe 1 at once.
     */
    public Step arm(String selector, long hintMs, long nowMs) {
        List<Effect> effects = new ArrayList<>(abortInFlight());
        long hint = Math.max(0, hintMs);
        long firstAt = saturatedAdd(nowMs, hint / 2 + hint % 2);
        long deadline = saturatedAdd(nowMs, hint);
        effects.add(new Effect.Announce(1, firstAt));
        return new Step(new ProbePlan(selector, generation + 1, firstAt, deadline, Stage.FIRST, 0, false), effects);
    }

    /** Cancels the plan (manual model change, close): no further effect, an in-flight probe aborted. */
    public Step cancel() {
        return new Step(new ProbePlan(selector, generation + 1, firstAtMs, deadlineMs, Stage.DONE, 0,
                secondAnnounced), abortInFlight());
    }

    /** Timer {@code timer} of plan {@code gen} fired. */
    public Step timer(long gen, Timer timer) {
        if (gen != generation || stage == Stage.DONE) {
            return unchanged();
        }
        if (timer == Timer.FIRST) {
            if (stage != Stage.FIRST || inFlight != 0) {
                return unchanged();
            }
            return new Step(with(Stage.FIRST, 1, secondAnnounced), List.of(new Effect.Launch(1)));
        }
        if (inFlight == 2) {
            return unchanged();
        }
        // The deadline is probe 2's time whatever probe 1 is doing: a probe 1 still running is cut off.
        List<Effect> effects = new ArrayList<>(abortInFlight());
        if (!secondAnnounced) {
            effects.add(new Effect.Announce(2, deadlineMs));
        }
        effects.add(new Effect.Launch(2));
        return new Step(with(Stage.SECOND, 2, true), effects);
    }

    /** Probe {@code probeIndex} of plan {@code gen} finished; a stale or aborted probe's result is ignored. */
    public Step result(long gen, int probeIndex, boolean ok, String errorMessage) {
        if (gen != generation || stage == Stage.DONE || probeIndex != inFlight) {
            return unchanged();
        }
        if (ok) {
            // Cleared first: a client that acts on the result event finds the cooldown and circuit gone.
            return new Step(with(Stage.DONE, 0, secondAnnounced),
                    List.of(new Effect.Cleared(), new Effect.Report(probeIndex, true, null)));
        }
        Effect report = new Effect.Report(probeIndex, false, errorMessage);
        if (probeIndex == 2) {
            return new Step(with(Stage.DONE, 0, secondAnnounced), List.of(report));
        }
        List<Effect> effects = new ArrayList<>(List.of(report));
        if (!secondAnnounced) {
            effects.add(new Effect.Announce(2, deadlineMs));
        }
        return new Step(with(Stage.SECOND, 0, true), effects);
    }

    private List<Effect> abortInFlight() {
        return inFlight == 0 || stage == Stage.DONE ? List.of() : List.of(new Effect.Abort(inFlight));
    }

    private ProbePlan with(Stage nextStage, int running, boolean announced) {
        return new ProbePlan(selector, generation, firstAtMs, deadlineMs, nextStage, running, announced);
    }

    private Step unchanged() {
        return new Step(this, List.of());
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
