package dev.agentd.server.cli;

import static dev.agentd.server.cli.ShutdownSignals.Action.CONTINUE;
import static dev.agentd.server.cli.ShutdownSignals.Action.EXIT_NOW;
import static dev.agentd.server.cli.ShutdownSignals.Action.START;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** pi 1.6's shutdown rule: one orderly shutdown, not interrupted by EOF or one signal; two signals exit. */
class ShutdownSignalsTest {

    @Test
    void eofThenSigtermTogetherShutDownOnceInOrder() {
        ShutdownSignals signals = new ShutdownSignals();
        assertEquals(List.of(START, CONTINUE, CONTINUE), List.of(signals.onEnd(), signals.onSignal(), signals.onEnd()));
        assertEquals(EXIT_NOW, signals.onSignal(), "a second signal exits at once");
    }

    @Test
    void aSignalStartsTheShutdownAndTheNextOneExits() {
        ShutdownSignals signals = new ShutdownSignals();
        assertEquals(List.of(START, CONTINUE, EXIT_NOW, EXIT_NOW),
                List.of(signals.onSignal(), signals.onEnd(), signals.onSignal(), signals.onSignal()));
    }
}
