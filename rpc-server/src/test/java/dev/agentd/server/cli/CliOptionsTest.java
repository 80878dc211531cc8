package dev.agentd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.model.UpdateMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CliOptionsTest {
    @Test
    void parsesEveryOption() throws Exception {
        CliOptions options = CliOptions.parse("--mode", "rpc", "--provider", "openai", "--model=gpt-5",
                "--thinking", "high", "--no-session", "--session-dir", "/tmp/s", "--api-key", "sk-secret",
                "--tools", " read, ,bash,grep", "--no-model-fallback", "--faux-script", "s.json", "--updates", "delta");
        assertEquals("openai", options.provider());
        assertEquals("gpt-5", options.model());
        assertEquals("high", options.thinking());
        assertTrue(options.noSession());
        assertEquals(Path.of("/tmp/s"), options.sessionDir());
        assertEquals(List.of("read", "bash", "grep"), options.tools());
        assertTrue(options.noModelFallback());
        assertEquals(UpdateMode.DELTA, options.updates());
        assertFalse(options.toString().contains("sk-secret"), "the key never shows in toString");
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.parse("--bogus"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.parse("--mode", "soap"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.parse("--model"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.parse("--updates", "sometimes"));
        assertThrows(CliOptions.UsageException.class, () -> CliOptions.parse("--session", "a", "--continue"));
    }

    @Test
    void updatesAreDeltaOnlyByDefaultAsInPiOneAndFullOnRequest() throws Exception {
        assertEquals(UpdateMode.DELTA, CliOptions.parse("--mode", "rpc").updates());
        assertEquals(UpdateMode.FULL, CliOptions.parse("--updates", "full").updates());
    }
}
