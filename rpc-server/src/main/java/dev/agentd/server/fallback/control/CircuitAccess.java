package dev.agentd.server.fallback.control;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Results;
import dev.agentd.server.fallback.FallbackLog;
import dev.agentd.server.fallback.FallbackSettings;
import dev.agentd.server.fallback.RevertRule;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.SwitchReason;
import dev.agentd.server.runtime.LogText;
import dev.agentd.server.state.Admission;
import dev.agentd.server.state.CircuitTimings;
import dev.agentd.server.state.CircuitView;
import dev.agentd.server.state.Circuits;
import dev.agentd.server.state.ProbeToken;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's access to the shared circuit breakers (FALLBACK §6): the session's lane
 * ({@code <sessionId>:turn}), the one probe token it may hold, and the rules of when a failure
 * opens a circuit and a success closes it. {@link FallbackSwitch} and {@link TurnBoundary} ask; this class talks to the
 * store, logs and announces. Everything is off when {@code fallback.circuitCooldownMs} is 0.
 * A store that fails never throws here (stores fall back on their own; see {@code SharedState}).
 *
 * <p>Read-only questions (the candidate scan, the revert rule) use one {@link Circuits#list}
 * snapshot: an entry is open for this session while it cools down, or while another owner's
 * probe lease is live — the lease this session holds is its own. Admission (which may grant the
 * lease) happens only for the entry a session is about to use.
 */
final class CircuitAccess {
    private static final Logger LOG = LoggerFactory.getLogger(CircuitAccess.class);

    private final Circuits circuits;
    private final Supplier<String> sessionId;
    private final Supplier<FallbackSettings> fallbackSettings;
    private final LongSupplier probeLeaseMs;
    private final FallbackLog log;
    private final Consumer<AgentEvent> emit;
    /** The probe lease this session holds (at most one): the selector and the token. */
    private final AtomicReference<Held> held = new AtomicReference<>();

    private record Held(String selector, ProbeToken token) {}

    /** The last read of the store, for queries that must not wait for one ({@link #listed}). */
    private volatile LastRead lastRead = new LastRead(List.of(), 0);
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final LongSupplier monotonicMs;

    private record LastRead(List<CircuitView> views, long atMs) {}

    /** @param probeLeaseMs how long a half-open probe's lease lasts (see {@link FallbackServices}) */
    CircuitAccess(Circuits circuits, Supplier<String> sessionId, Supplier<FallbackSettings> fallbackSettings,
            LongSupplier probeLeaseMs, LongSupplier monotonicMs, FallbackLog log, Consumer<AgentEvent> emit) {
        this.monotonicMs = monotonicMs;
        this.circuits = circuits;
        this.sessionId = sessionId;
        this.fallbackSettings = fallbackSettings;
        this.probeLeaseMs = probeLeaseMs;
        this.log = log;
        this.emit = emit;
    }

    private String owner() {
        String id = sessionId.get();
        return (id == null ? "session" : id) + ":turn";
    }

    /** The timings now, or empty when circuits are off. */
    private Optional<CircuitTimings> timings() {
        FallbackSettings fallback = fallbackSettings.get();
        if (!fallback.circuitsEnabled()) {
            return Optional.empty();
        }
        return Optional.of(new CircuitTimings(fallback.circuitCooldownMs(), fallback.circuitMaxCooldownMs(),
                probeLeaseMs.getAsLong()));
    }

    boolean enabled() {
        return timings().isPresent();
    }

    private Map<String, CircuitView> snapshot() {
        Optional<CircuitTimings> timings = timings();
        List<CircuitView> read = timings.map(circuits::list).orElse(List.of());
        lastRead = new LastRead(List.copyOf(read), monotonicMs.getAsLong());
        Map<String, CircuitView> views = new LinkedHashMap<>();
        read.forEach(view -> views.put(lower(view.selector()), view));
        return views;
    }

    private boolean openFor(CircuitView view) {
        if (view == null) {
            return false;
        }
        if (view.state() == CircuitView.State.OPEN) {
            return true;
        }
        Held mine = held.get();
        return view.remainingMs() > 0 && (mine == null || !mine.selector().equalsIgnoreCase(view.selector()));
    }

    /** Which base selectors are open for this session now (one snapshot for a whole scan). */
    Predicate<String> openNow() {
        Map<String, CircuitView> views = snapshot();
        return views.isEmpty() ? base -> false : base -> openFor(views.get(lower(base)));
    }

    /** The circuit of {@code selector} as {@link RevertRule} reads it. */
    RevertRule.Circuit revertView(String selector) {
        CircuitView view = snapshot().get(lower(selector));
        return view == null ? RevertRule.Circuit.NONE
                : openFor(view) ? RevertRule.Circuit.OPEN : RevertRule.Circuit.HALF_OPEN;
    }

    /**
     * Admission for the entry the session is about to send to: keeps the probe token when it is
     * granted, gives back a token held for another entry. Closed when circuits are off.
     */
    Admission admit(String selector) {
        Optional<CircuitTimings> timings = timings();
        if (timings.isEmpty()) {
            return new Admission.Closed();
        }
        Held before = held.get();
        if (before != null && !before.selector().equalsIgnoreCase(selector)) {
            release();
        }
        Admission admission = circuits.admit(selector, owner(), timings.get());
        if (admission instanceof Admission.Probe probe) {
            held.set(new Held(selector, probe.token()));
            log.info("circuit_probe", Map.of("selector", selector));
        } else if (held.get() != null && held.get().selector().equalsIgnoreCase(selector)) {
            held.set(null); // closed meanwhile (someone's success) or re-opened: the lease is gone
        }
        return admission;
    }

    /** Whether this session holds the half-open probe of {@code selector}: its next failure switches at once. */
    boolean probing(String selector) {
        Held mine = held.get();
        return mine != null && mine.selector().equalsIgnoreCase(selector);
    }

    /**
     * A failure of {@code selector} that the session is acting on: opens its circuit when the cause
     * is one of FALLBACK §6 — a transient failure that spent its budget and switched
     * ({@code switched} with reason transient), billing or quota exhaustion (switched or not), or a
     * failed half-open probe — and never for rejected credentials, access denials, request-shape
     * (hard) errors, refusals, overflows or aborts; a probe that failed for such a reason just hands
     * its lease back.
     */
    void failed(String selector, Classification classification, SwitchReason switchedFor, Long retryAfterMs) {
        Optional<CircuitTimings> timings = timings();
        if (timings.isEmpty()) {
            return;
        }
        ErrorClass errorClass = classification == null ? ErrorClass.NONE : classification.errorClass();
        boolean probe = probing(selector);
        boolean opens = switch (errorClass) {
            case CREDENTIAL_REJECTED, ACCESS_DENIED, HARD, REFUSAL, OVERFLOW, ABORTED, NONE -> false;
            case BILLING, QUOTA -> true;
            default -> switchedFor == SwitchReason.TRANSIENT || probe;
        };
        if (!opens) {
            if (probe) {
                release();
            }
            return;
        }
        OptionalLong hint = retryAfterMs == null || retryAfterMs <= 0 ? OptionalLong.empty()
                : OptionalLong.of(retryAfterMs);
        long duration = circuits.open(selector, hint, timings.get());
        if (probe) {
            held.set(null); // opening ended the lease
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("selector", selector);
        data.put("durationMs", duration);
        hint.ifPresent(ms -> data.put("retryAfterMs", ms));
        log.info("circuit_opened", data);
        emit.accept(new AgentEvent.FallbackCircuitOpened(selector, duration, retryAfterMs == null || retryAfterMs <= 0
                ? null : retryAfterMs));
    }

    /** Any successful reply from {@code selector} closes its circuit (and ends this session's probe). */
    void succeeded(String selector) {
        if (!enabled()) {
            return;
        }
        boolean probe = probing(selector);
        if (probe || snapshot().containsKey(lower(selector))) {
            circuits.close(selector);
            if (probe) {
                held.set(null);
            }
            log.info("circuit_closed", Map.of("selector", selector));
            emit.accept(new AgentEvent.FallbackCircuitClosed(selector));
        }
    }

    /** The user chose {@code selector}: its circuit closes (they asked for it), any lease is given back. */
    void chosenByUser(String selector) {
        release();
        if (enabled() && snapshot().containsKey(lower(selector))) {
            circuits.close(selector);
            log.info("circuit_closed", Map.of("selector", selector, "trigger", "manual"));
            emit.accept(new AgentEvent.FallbackCircuitClosed(selector));
        }
    }

    /** Gives back the lease this session holds, if any, without a verdict. */
    void release() {
        Held mine = held.getAndSet(null);
        if (mine != null) {
            try {
                circuits.release(mine.selector(), mine.token());
            } catch (RuntimeException e) {
                LOG.warn("could not release the probe lease of {}: {}", LogText.clip(mine.selector()),
                        LogText.clip(e.toString()));
            }
        }
    }

    /**
     * Asks {@code worker} (off the command reader) to read the store again, so the next
     * {@link #listed} is current; a read already asked for and not yet done covers this one, so
     * a client polling during a long run queues one read, not one per poll.
     */
    void refreshOn(Executor worker) {
        if (!refreshing.compareAndSet(false, true)) {
            return;
        }
        try {
            worker.execute(() -> {
                refreshing.set(false);
                snapshot();
            });
        } catch (RejectedExecutionException e) {
            refreshing.set(false); // the session is closing: the last read stands
        }
    }

    /**
     * {@code get_fallback_state.circuits}: the last read, never a store call (the command reader
     * answers it). Empty when circuits are off.
     */
    List<Results.FallbackCircuit> listed() {
        if (!enabled()) {
            return List.of();
        }
        LastRead read = lastRead;
        long elapsed = Math.max(0, monotonicMs.getAsLong() - read.atMs());
        return read.views().stream().map(view -> new Results.FallbackCircuit(view.selector(),
                view.state() == CircuitView.State.OPEN ? "open" : "half-open",
                Math.max(0, view.remainingMs() - elapsed))).toList();
    }

    private static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }
}
