package dev.agentd.server.cli;

import dev.agentd.server.config.Settings;
import dev.agentd.server.runtime.Scheduler;
import dev.agentd.server.state.FileState;
import dev.agentd.server.state.MemoryState;
import dev.agentd.server.state.SharedState;
import dev.agentd.server.state.StateConfig;
import dev.agentd.server.state.redis.RedisConfig;
import dev.agentd.server.state.redis.RedisState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which store holds the circuit breakers and credential blocks (FALLBACK §6), chosen once at
 * startup by {@code state.store} (or {@code AGENTD_STATE_URL}, see {@link StateConfig} and
 * {@link RedisConfig}):
 * {@code file} (the default: {@code <agentDir>/circuits.json}, shared by every agentd on that
 * directory), {@code memory} (this process only) or {@code redis} (a fleet; the file store stands
 * in while Redis is unreachable). Opening never touches the network: Redis connects on first use.
 */
final class StateStores {
    private static final Logger LOG = LoggerFactory.getLogger(StateStores.class);

    private StateStores() {}

    /** The store for {@code agentDir}; never throws (an unusable choice falls back with a warning). */
    static SharedState open(Settings settings, Path agentDir, Map<String, String> env, Scheduler scheduler) {
        StateConfig config = StateConfig.from(settings, env);
        List<String> warnings = new ArrayList<>(config.warnings());
        Optional<RedisConfig> redis = config.redis().flatMap(raw -> RedisConfig.from(raw, warnings));
        warnings.forEach(warning -> LOG.warn("{}", warning));
        return switch (config.kind()) {
            case FILE -> FileState.onSystemClock(agentDir);
            case MEMORY -> MemoryState.onSystemClock();
            case REDIS -> redis.<SharedState>map(r -> RedisState.open(r, FileState.onSystemClock(agentDir), scheduler))
                    .orElseGet(() -> FileState.onSystemClock(agentDir)); // malformed URL: warned above
        };
    }
}
