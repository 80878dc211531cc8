package dev.agentd.server.fallback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.config.SettingsStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PreemptiveSwitchTest {

    @TempDir
    Path dir;

    private OptionalDouble threshold(String retryJson) throws Exception {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"retry\":" + retryJson + "}");
        return PreemptiveSwitch.threshold(new SettingsStore(file, null).current());
    }

    @Test
    void offByDefaultAndForAnythingButAFractionAboveZero() throws Exception {
        assertEquals(OptionalDouble.empty(), threshold("{}"));
        assertEquals(OptionalDouble.empty(), threshold("{\"preemptiveSwitchAt\":0}"));
        assertEquals(OptionalDouble.empty(), threshold("{\"preemptiveSwitchAt\":-0.5}"));
        assertEquals(OptionalDouble.empty(), threshold("{\"preemptiveSwitchAt\":1.5}"));
        assertEquals(OptionalDouble.empty(), threshold("{\"preemptiveSwitchAt\":\"0.9\"}"));
        assertEquals(OptionalDouble.of(0.9), threshold("{\"preemptiveSwitchAt\":0.9}"));
        assertEquals(OptionalDouble.of(1.0), threshold("{\"preemptiveSwitchAt\":1}"));
    }

    @Test
    void dueOnlyWhenKnownAndStrictlyAbove() {
        OptionalDouble at = OptionalDouble.of(0.9);
        assertTrue(PreemptiveSwitch.due(OptionalDouble.of(0.91), at));
        assertFalse(PreemptiveSwitch.due(OptionalDouble.of(0.9), at));
        assertFalse(PreemptiveSwitch.due(OptionalDouble.empty(), at), "no figures: no switch");
        assertFalse(PreemptiveSwitch.due(OptionalDouble.of(1.0), OptionalDouble.empty()), "off");
    }
}
