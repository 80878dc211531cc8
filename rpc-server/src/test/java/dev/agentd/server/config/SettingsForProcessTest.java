package dev.agentd.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.BooleanNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 17 point 8: a toggle with persist:false lasts for this process only. */
class SettingsForProcessTest {
    @TempDir
    Path dir;

    @Test
    void aProcessOnlyToggleWinsButWritesNoFile() throws IOException {
        Path global = dir.resolve("settings.json");
        SettingsStore store = new SettingsStore(global, null);
        store.setForProcess("retry.enabled", BooleanNode.FALSE);
        assertFalse(store.current().bool("retry.enabled", true));
        assertFalse(Files.exists(global));
        store.set("retry.enabled", BooleanNode.TRUE);
        assertTrue(Files.readString(global).contains("\"enabled\" : true"));
        assertEquals(true, new SettingsStore(global, null).current().bool("retry.enabled", false));
    }
}
