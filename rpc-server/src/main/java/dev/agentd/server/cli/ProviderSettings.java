package dev.agentd.server.cli;

import dev.agentd.server.ai.ReplyBound;
import dev.agentd.server.ai.http.ProviderTimeouts;
import dev.agentd.server.config.Settings;

/** Provider limits read from settings; here so that {@code ai} stays free of {@code config}. */
final class ProviderSettings {
    /** Below this a real reply would be cut; above it the session file nears its 512 MB load limit. */
    static final long MIN_REPLY_BYTES = 64 * 1024;
    static final long MAX_REPLY_BYTES = 256L * 1024 * 1024;

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

    /** {@code retry.provider.maxReplyBytes}: the most a reply may stream (64 KiB to 256 MiB). */
    static long maxReplyBytes(Settings settings) {
        return settings.integer(ReplyBound.SETTING, ReplyBound.DEFAULT_MAX_REPLY_BYTES, MIN_REPLY_BYTES,
                MAX_REPLY_BYTES);
    }
}
