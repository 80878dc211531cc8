package dev.agentd.server.cli;

import dev.agentd.server.config.Settings;
import dev.agentd.server.state.FileState;
import dev.agentd.server.state.MemoryState;
import dev.agentd.server.state.SharedState;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which store holds the circuit breakers and credential blocks (FALLBACK §6), chosen once at
 * startup by {@code state.store}: {@code file} (the default: {@code <agentDir>/circuits.json},
 * shared by every agentd on that directory) or {@code memory} (this process only).
 */
final class StateStores {
    private static final Logger LOG = LoggerFactory.getLogger(StateStores.class);
    static final String KEY = "state.store";

    private StateStores() {}

    /** The store for {@code agentDir}; never throws (an unusable choice falls back with a warning). */
    static SharedState open(Settings settings, Path agentDir) {
        String store = settings.node(KEY).filter(node -> node.isTextual()).map(node -> node.textValue()).orElse("file");
        return switch (store) {
            case "file" -> FileState.in(agentDir);
            case "memory" -> MemoryState.system();
            default -> {
                LOG.warn("settings: '{}' should be \"file\" or \"memory\"; using \"file\"", KEY);
                yield FileState.in(agentDir);
            }
        };
    }
}
