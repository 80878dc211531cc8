package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class MemoryStateTest extends SharedStateContract {
    @Override
    protected SharedState newState(LongSupplier clock) {
        return new MemoryState(clock);
    }

    @Override
    protected SharedState newPeer(LongSupplier clock) {
        return state; // process-local: every session of the process holds the same instance
    }

    @Test
    void saysItIsProcessLocal() {
        assertEquals("memory", state.status().kind());
        assertFalse(state.status().shared());
    }
}
