package dev.agentd.server.config;

import dev.agentd.server.runtime.LogText;
import dev.agentd.server.runtime.Suggest;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The settings.json keys agentd knows (SPEC §2 and FALLBACK.md), for warning about the rest: a
 * typo such as {@code retry.maxRetry} would otherwise silently leave the default in force. Only
 * the groups below are checked key by key; the values of the open maps (such as
 * {@code retry.fallbackChains}) are not. Unknown keys are kept (the file is pi's as well).
 */
final class SettingsKeys {
    static final Set<String> TOP = Set.of("retry", "compaction", "steeringMode", "followUpMode", "defaultProvider",
            "defaultModel", "defaultThinkingLevel", "fallback", "state", "acp", "trust", "mcpServers");
    static final Map<String, Set<String>> GROUPS = Map.of(
            "retry", Set.of("enabled", "maxRetries", "baseDelayMs", "maxRetryDelayMs", "maxAgentDelayMs", "provider",
                    "fallbackChains", "fallbackRevertPolicy", "hintedWaitCapMs", "modelFallback", "probeBackMaxMs",
                    "preemptiveSwitchAt", "jitterRatio", "keepPartial", "resumeAtResetMaxMs"),
            "retry.provider", Set.of("connectTimeoutMs", "streamStartTimeoutMs", "streamFirstEventTimeoutMs",
                    "streamIdleTimeoutMs", "maxReplyBytes"),
            "compaction", Set.of("enabled", "reserveTokens", "keepRecentTokens"),
            "fallback", Set.of("circuitCooldownMs", "circuitMaxCooldownMs", "log"),
            "fallback.log", Set.of("maxBytes"),
            "state", Set.of("store", "url", "keyPrefix", "connectTimeoutMs", "commandTimeoutMs"),
            // --mode acp: "allow" skips session/request_permission before writes, edits and bash
            "acp", Set.of("permissions"),
            // global only: the project roots whose widening keys apply (ProjectTrust)
            "trust", Set.of("projects"));

    private SettingsKeys() {}

    /**
     * Reports each unknown key of {@code root} as {@code (key, message)}; the key names the file
     * and path so a store reports it once.
     */
    static void check(String file, JsonNode root, BiConsumer<String, String> report) {
        check(file, root, "", TOP, report);
    }

    private static void check(String file, JsonNode node, String prefix, Set<String> known,
            BiConsumer<String, String> report) {
        node.fieldNames().forEachRemaining(key -> {
            String path = prefix + key;
            if (!known.contains(key)) {
                // A project file is untrusted text: a CR/LF in a key must not forge a log line (N13).
                String shown = LogText.clip(key);
                report.accept("key:" + file + ":" + path, "settings file " + file + ": unknown key '" + prefix + shown
                        + "'" + Suggest.closest(key, known).map(best -> " (did you mean '" + prefix + best + "'?)")
                        .orElse("") + "; ignored");
                return;
            }
            Set<String> children = GROUPS.get(path);
            JsonNode child = node.get(key);
            if (children != null && child.isObject()) {
                check(file, child, path + ".", children, report);
            }
        });
    }
}
