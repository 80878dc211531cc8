package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code /compact [instructions]} is recognised as the command, and nothing else is. */
class CompactCommandTest {
    @Test
    void theCommandWithOrWithoutInstructions() {
        assertTrue(CompactCommand.matches("/compact"));
        assertTrue(CompactCommand.matches("  /compact\n"));
        assertTrue(CompactCommand.matches("/compact keep the API decisions"));
        assertNull(CompactCommand.instructions("/compact  "));
        assertEquals("keep the API decisions", CompactCommand.instructions("/compact keep the API decisions "));
        assertFalse(CompactCommand.matches("/compacted"));
        assertFalse(CompactCommand.matches("please /compact"));
        assertFalse(CompactCommand.matches("/greet Bob"));
    }
}
