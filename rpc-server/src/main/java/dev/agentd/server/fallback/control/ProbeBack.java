package dev.agentd.server.fallback.control;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.fallback.ProbePlan;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.runtime.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the session's {@link ProbePlan} (FALLBACK §5.5): arms its two timers on the
 * session's {@link Scheduler}, runs each probe on the {@code worker} (never on the scheduler's
 * thread: a probe is an HTTP request), and emits {@code retry_probe_scheduled} and
 * {@code retry_probe_result}. The worker runs one task at a time, so the events keep their order
 * and an aborted probe has returned before the next one starts. The plan is guarded by
 * {@code this}; nothing here calls back into the session under that lock.
 */
final class ProbeBack implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProbeBack.class);

    /** One probe of {@code model}: empty when it answered, else why not. Runs on the worker. */
    public interface Probe {
        Optional<String> run(Model model, CancellationToken cancel);
    }

    private final Scheduler scheduler;
    private final Executor worker;
    private final Probe probe;
    private final Consumer<AgentEvent> emit;
    private final Consumer<Model> onCleared;
    private ProbePlan plan = ProbePlan.NONE;
    private Model demoted;
    private final List<Scheduler.Cancellable> timers = new ArrayList<>();
    private CancellationToken running;
    /** Shut down at close when this instance created it. */
    private final ExecutorService ownWorker;

    /**
     * @param worker a single-threaded executor (one task at a time, in order)
     * @param onCleared a probe succeeded: the session clears the model's cooldown and closes its circuit
     */
    ProbeBack(Scheduler scheduler, Executor worker, Probe probe, Consumer<AgentEvent> emit,
            Consumer<Model> onCleared) {
        this(scheduler, worker, probe, emit, onCleared, null);
    }

    private ProbeBack(Scheduler scheduler, Executor worker, Probe probe, Consumer<AgentEvent> emit,
            Consumer<Model> onCleared, ExecutorService ownWorker) {
        this.ownWorker = ownWorker;
        this.scheduler = scheduler;
        this.worker = worker;
        this.probe = probe;
        this.emit = emit;
        this.onCleared = onCleared;
    }

    /** A controller with its own daemon worker thread ({@code agentd-probe}), stopped by {@link #close()}. */
    static ProbeBack onOwnThread(Scheduler scheduler, Probe probe, Consumer<AgentEvent> emit,
            Consumer<Model> onCleared) {
        ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "agentd-probe");
            thread.setDaemon(true);
            return thread;
        });
        return new ProbeBack(scheduler, worker, probe, emit, onCleared, worker);
    }

    /** Arms a plan for {@code model}, demoted for {@code hintMs}; an armed plan is superseded. */
    synchronized void arm(Model model, long hintMs) {
        long now = scheduler.monotonicMs();
        cancelTimers();
        ProbePlan.Step step = plan.arm(model.selector(), hintMs, now);
        plan = step.plan();
        demoted = model;
        long generation = plan.generation();
        timers.add(scheduler.schedule(plan.firstAtMs() - now, () -> fire(generation, ProbePlan.Timer.FIRST)));
        timers.add(scheduler.schedule(plan.deadlineMs() - now, () -> fire(generation, ProbePlan.Timer.DEADLINE)));
        carryOut(step);
    }

    /** Cancels the plan (a manual model change, a new session, close): nothing more is emitted. */
    synchronized void cancel() {
        if (!plan.armed()) {
            return;
        }
        cancelTimers();
        ProbePlan.Step step = plan.cancel();
        plan = step.plan();
        carryOut(step);
    }

    /** Whether a plan is armed (tests, state). */
    synchronized boolean armed() {
        return plan.armed();
    }

    @Override
    public void close() {
        cancel();
        if (ownWorker != null) {
            ownWorker.shutdownNow();
        }
    }

    /** On the scheduler's thread: a state change only; the work goes to the worker. */
    private synchronized void fire(long generation, ProbePlan.Timer timer) {
        ProbePlan.Step step = plan.timer(generation, timer);
        plan = step.plan();
        carryOut(step);
    }

    private synchronized void finished(long generation, int probeIndex, Optional<String> error) {
        ProbePlan.Step step = plan.result(generation, probeIndex, error.isEmpty(), error.orElse(null));
        plan = step.plan();
        carryOut(step);
    }

    /** Under the lock: aborts at once, hands every other effect to the worker in order. */
    private void carryOut(ProbePlan.Step step) {
        if (step.effects().isEmpty()) {
            return;
        }
        Model model = demoted;
        String selector = step.plan().selector();
        long generation = step.plan().generation();
        long monotonic = scheduler.monotonicMs();
        long wall = scheduler.now();
        List<Runnable> work = new ArrayList<>();
        ProbePlan.Effect.Handler<Void> handler = new ProbePlan.Effect.Handler<>() {
            @Override
            public Void announce(ProbePlan.Effect.Announce announce) {
                // atMs leaves the process: the wall-clock time of the monotonic due time
                long atMs = wall + (announce.atMs() - monotonic);
                work.add(() -> emit.accept(new AgentEvent.RetryProbeScheduled(selector, atMs, announce.probeIndex())));
                return null;
            }

            @Override
            public Void launch(ProbePlan.Effect.Launch launch) {
                CancellationToken token = new CancellationToken();
                running = token;
                work.add(() -> runProbe(model, launch.probeIndex(), generation, token));
                return null;
            }

            @Override
            public Void abort(ProbePlan.Effect.Abort abort) {
                if (running != null) {
                    running.cancel();
                    running = null;
                }
                return null;
            }

            @Override
            public Void report(ProbePlan.Effect.Report report) {
                work.add(() -> emit.accept(new AgentEvent.RetryProbeResult(selector, report.ok(), report.errorMessage())));
                return null;
            }

            @Override
            public Void cleared(ProbePlan.Effect.Cleared cleared) {
                work.add(() -> onCleared.accept(model));
                return null;
            }
        };
        step.effects().forEach(effect -> effect.accept(handler));
        if (work.isEmpty()) {
            return;
        }
        try {
            worker.execute(() -> work.forEach(ProbeBack::quietly));
        } catch (RejectedExecutionException e) {
            LOG.debug("probe-back worker stopped; dropping {} effects", work.size());
        }
    }

    private void runProbe(Model model, int probeIndex, long generation, CancellationToken token) {
        if (token.isCancelled()) {
            return;
        }
        Optional<String> error;
        try {
            error = probe.run(model, token);
        } catch (RuntimeException e) {
            error = Optional.of("Probe failed: " + e.getClass().getSimpleName());
        }
        synchronized (this) {
            if (running == token) {
                running = null;
            }
        }
        finished(generation, probeIndex, error);
    }

    private static void quietly(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.warn("probe-back step failed: {}", e.toString());
        }
    }

    private void cancelTimers() {
        timers.forEach(Scheduler.Cancellable::cancel);
        timers.clear();
    }
}
