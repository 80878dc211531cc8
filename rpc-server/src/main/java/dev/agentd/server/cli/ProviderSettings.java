package dev.agentd.server.cli;

import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.config.Settings;

/** Provider limits read from settings; here so that {@code ai} stays free of {@code config}. */
final class ProviderSettings {
    private ProviderSettings() {}

    /** The {@code retry.provider.*} settings; malformed values fall back with the store's warning. */
    static ProviderTimeouts timeouts(Settings settings) {
        ProviderTimeouts defaults = ProviderTimeouts.DEFAULTS;
        long max = ProviderTimeouts.MAX_MS;
        return new ProviderTimeouts(
                settings.integer("retry.provider.connectTimeoutMs", defaults.connectMs(), 1, max),
                settings.integer("retry.provider.streamStartTimeoutMs", defaults.streamStartMs(), 1, max),
                settings.integer("retry.provider.streamIdleTimeoutMs", defaults.streamIdleMs(), 1, max),
                settings.integer("retry.provider.streamFirstEventTimeoutMs", defaults.firstEventMs(), 1, max));
    }
}
