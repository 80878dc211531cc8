package dev.agentd.server.fallback.control;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.ai.ModelAvailability;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.config.Settings;
import dev.agentd.server.runtime.Scheduler;
import java.util.concurrent.Executor;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What a session hands its model fallback when it is built: nothing of the session itself, only
 * time, settings, randomness, the catalog, the event sink and two ways to act.
 *
 * @param settings the settings in force now (re-read at every decision)
 * @param availability whether a rung, an original or a probed model can be called now
 * @param random the jitter of cooldowns; thread-safe
 * @param emit publishes an event on the session's stream
 * @param probe sends one probe request to a demoted model (FALLBACK §5.5)
 * @param sessionId names this session's circuit leases
 * @param storeWork runs shared-store work that must not block the caller (a user's model change
 *     arrives on the command reader), in order with the session's runs: the session's run thread
 * @param services the process's fallback switches, debug log and shared state
 * @param utilization a selector's current rate-limit utilization (0..1) as its replies' headers
 *     said, empty when unknown: the pre-emptive switch reads it
 */
public record FallbackWiring(Scheduler scheduler, Supplier<Settings> settings, RandomGenerator random,
        ModelRegistry models, ModelAvailability availability, Consumer<AgentEvent> emit, ProbeBack.Probe probe, Supplier<String> sessionId,
        Executor storeWork, FallbackServices services, Function<String, OptionalDouble> utilization) {

    /** Without rate-limit figures (no pre-emptive switch). */
    public FallbackWiring(Scheduler scheduler, Supplier<Settings> settings, RandomGenerator random,
            ModelRegistry models, ModelAvailability availability, Consumer<AgentEvent> emit, ProbeBack.Probe probe,
            Supplier<String> sessionId, Executor storeWork, FallbackServices services) {
        this(scheduler, settings, random, models, availability, emit, probe, sessionId, storeWork, services,
                selector -> OptionalDouble.empty());
    }
}
