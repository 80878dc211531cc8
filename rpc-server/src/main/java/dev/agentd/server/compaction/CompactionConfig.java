package dev.agentd.server.compaction;

import dev.agentd.server.config.Settings;

/** The {@code compaction} settings group (SPEC §2, §8). */
public record CompactionConfig(boolean enabled, long reserveTokens, long keepRecentTokens) {

    public static final CompactionConfig DEFAULTS = new CompactionConfig(true, 16_384, 20_000);

    public static CompactionConfig from(Settings settings) {
        return new CompactionConfig(
                settings.bool("compaction.enabled", DEFAULTS.enabled),
                settings.integer("compaction.reserveTokens", DEFAULTS.reserveTokens, 0, 10_000_000),
                settings.integer("compaction.keepRecentTokens", DEFAULTS.keepRecentTokens, 0, 10_000_000));
    }
}
