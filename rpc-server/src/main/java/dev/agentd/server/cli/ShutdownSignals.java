package dev.agentd.server.cli;

import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the daemon stops, as pi 1.6 does it: the first of stdin's end, SIGTERM or SIGHUP starts one
 * orderly shutdown (the run is aborted and settles, the last records are written); once it has
 * started, an end of stdin or a single signal does not interrupt it — process managers close stdin
 * and send SIGTERM together — and a second signal exits at once, with 128 + its number.
 */
final class ShutdownSignals {
    private static final Logger LOG = LoggerFactory.getLogger(ShutdownSignals.class);

    /** What one cause asks for. */
    enum Action { START, CONTINUE, EXIT_NOW }

    private boolean started;
    private int signals;

    /** stdin ended (or stdout closed). */
    synchronized Action onEnd() {
        if (started) {
            return Action.CONTINUE;
        }
        started = true;
        return Action.START;
    }

    /** A termination signal arrived. */
    synchronized Action onSignal() {
        signals++;
        if (!started) {
            started = true;
            return Action.START;
        }
        return signals >= 2 ? Action.EXIT_NOW : Action.CONTINUE;
    }

    /**
     * Handles SIGTERM and SIGHUP: {@code orderly} for the one that starts the shutdown,
     * {@code exitNow} (given the exit code) for a second signal.
     */
    @SuppressWarnings("restriction")
    void install(Runnable orderly, IntConsumer exitNow) {
        for (String name : new String[] {"TERM", "HUP"}) {
            try {
                sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                    switch (onSignal()) {
                        case START -> orderly.run();
                        case EXIT_NOW -> exitNow.accept(128 + signal.getNumber());
                        case CONTINUE -> LOG.info("SIG{} during the shutdown; a second signal exits at once", name);
                    }
                });
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                LOG.debug("SIG{} handler unavailable: {}", name, e.toString());
            }
        }
    }
}
