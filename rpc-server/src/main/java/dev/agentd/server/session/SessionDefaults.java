package dev.agentd.server.session;

import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.config.Settings;
import dev.agentd.server.config.SettingsStore;
import java.util.Optional;

/** The session-level keys of {@code settings.json} (SPEC §2), read with their defaults. */
record SessionDefaults(SettingsStore store) {

    QueueMode steeringMode() {
        return queueMode("steeringMode");
    }

    QueueMode followUpMode() {
        return queueMode("followUpMode");
    }

    Optional<ThinkingLevel> thinkingLevel() {
        return store.current().text("defaultThinkingLevel").flatMap(ThinkingLevel::parse);
    }

    /** {@code toolExecution}: {@code "sequential"} runs a reply's tool calls one at a time (SPEC §4). */
    boolean sequentialTools() {
        return store.current().text("toolExecution").map("sequential"::equals).orElse(false);
    }

    private QueueMode queueMode(String key) {
        Settings settings = store.current();
        return settings.text(key).flatMap(QueueMode::parse).orElse(QueueMode.ONE_AT_A_TIME);
    }
}
