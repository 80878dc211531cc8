package dev.agentd.server.fallback.control;

import dev.agentd.server.config.SettingsStore;
import java.util.function.BiConsumer;

/**
 * One session's model fallback, built once by the session: the end-of-run switch, the turn
 * boundary and the commands, sharing one episode, one health record and one circuit access. The
 * session reaches the model only through {@link ModelSeat}, and fallback reaches the session only
 * through {@link FallbackWiring}.
 */
public final class SessionFallback implements AutoCloseable {
    private final FallbackSwitch onRunEnd;
    private final TurnBoundary boundary;
    private final FallbackCommands commands;
    private final ProbeBack probes;

    private SessionFallback(FallbackSwitch onRunEnd, TurnBoundary boundary, FallbackCommands commands,
            ProbeBack probes) {
        this.onRunEnd = onRunEnd;
        this.boundary = boundary;
        this.commands = commands;
        this.probes = probes;
    }

    /**
     * @param settings where the fallback commands edit chains (the global file)
     * @param persist applies a settings toggle now and persists it
     */
    public static SessionFallback create(FallbackWiring wiring, ModelSeat seat, SettingsStore settings,
            BiConsumer<String, Object> persist) {
        Rungs rungs = new Rungs(wiring, seat);
        ProbeBack probes = ProbeBack.onOwnThread(wiring.scheduler(), wiring.probe(), wiring.emit(), model -> {
            // A probe answered: the cooldown ends and the circuit closes, so the next boundary reverts.
            rungs.health.recovered(model.selector());
            rungs.log().info("probe_back_cleared", Rungs.data("selector", model.selector()));
            rungs.circuits.succeeded(model.selector());
        });
        rungs.circuits.refreshOn(wiring.storeWork()); // get_fallback_state lists circuits from the start
        return new SessionFallback(new FallbackSwitch(rungs, probes), new TurnBoundary(rungs, probes),
                new FallbackCommands(rungs, settings, persist), probes);
    }

    /** What the end of a run asks and carries out. */
    public FallbackSwitch onRunEnd() {
        return onRunEnd;
    }

    /** The turn boundaries and the user's model choices. */
    public TurnBoundary boundary() {
        return boundary;
    }

    /** The fallback commands (FALLBACK §9). */
    public FallbackCommands commands() {
        return commands;
    }

    /** The session closes: no probe runs any more. */
    @Override
    public void close() {
        probes.close();
    }
}
