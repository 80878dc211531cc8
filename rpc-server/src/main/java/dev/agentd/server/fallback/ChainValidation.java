package dev.agentd.server.fallback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.runtime.LogText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a raw {@code retry.fallbackChains} node against the catalog and returns one warning
 * string per problem; the configuration itself is not changed (canonicalization drops what does
 * not resolve). Used at startup (each warning logged and printed) and by {@code set_fallback_chain},
 * which refuses to save while there is any.
 *
 * <p>Bounded whatever the file holds: only the chains and entries {@link FallbackSettings} uses
 * ({@link FallbackSettings#MAX_CHAINS} chains of {@link FallbackSettings#MAX_CHAIN_ENTRIES}
 * entries; one warning says what was ignored) are checked, at most {@link LogText#MAX_WARNINGS}
 * warnings are returned (then one counting the rest), and every key or entry is quoted through
 * {@link LogText#quoted}, escaped and cut, so a settings file cannot forge or flood log lines.
 */
final class ChainValidation {
    private ChainValidation() {}

    static List<String> validate(JsonNode raw, FallbackCatalog catalog) {
        List<String> warnings = new ArrayList<>();
        if (raw == null || raw.isMissingNode()) {
            return warnings;
        }
        if (!raw.isObject()) {
            warnings.add("Fallback chains must be a plain object, but got " + describe(raw) + ".");
            return warnings;
        }
        if (raw.size() > FallbackSettings.MAX_CHAINS) {
            warnings.add(FallbackSettings.tooManyChains(raw.size()));
        }
        int chains = 0;
        for (Map.Entry<String, JsonNode> chain : raw.properties()) {
            if (++chains > FallbackSettings.MAX_CHAINS) {
                break;
            }
            String key = chain.getKey();
            Optional<Model> keyModel = checkKey(key, catalog, warnings);
            if (keyModel == null) {
                continue;
            }
            JsonNode entries = chain.getValue();
            if (!isStringArray(entries)) {
                warnings.add("Fallback chain " + LogText.quoted(key) + " entries must be an array of strings.");
                continue;
            }
            if (entries.size() > FallbackSettings.MAX_CHAIN_ENTRIES) {
                warnings.add(FallbackSettings.tooLong(key, entries.size()));
            }
            for (int i = 0; i < Math.min(entries.size(), FallbackSettings.MAX_CHAIN_ENTRIES); i++) {
                checkEntry(entries.get(i).textValue(), key, keyModel, catalog, warnings);
            }
        }
        return LogText.capped(warnings, LogText.MAX_WARNINGS);
    }

    /** The key's model (empty for a valid bare key), or null when the key is invalid. */
    private static Optional<Model> checkKey(String key, FallbackCatalog catalog, List<String> warnings) {
        if (key.indexOf('*') >= 0) {
            warnings.add("Fallback chain key " + LogText.quoted(key) + " cannot contain wildcards.");
            return null;
        }
        if (key.indexOf('/') < 0) {
            Optional<Selector.Bare> bare = Selector.parseBare(key);
            if (bare.isPresent() && Families.known(catalog, bare.get().family())) {
                return Optional.empty();
            }
            warnings.add("Fallback chain key " + LogText.quoted(key)
                    + " must use a provider/model selector; roles are unsupported.");
            return null;
        }
        Optional<FallbackCatalog.Resolved> resolved = catalog.resolve(key);
        if (resolved.isEmpty()) {
            warnings.add("Fallback chain key " + LogText.quoted(key) + " is not a valid or known model selector.");
            return null;
        }
        if (unsupported(resolved.get())) {
            warnings.add(thinkingWarning("Fallback chain key " + LogText.quoted(key), resolved.get()));
            return null;
        }
        return Optional.of(resolved.get().model());
    }

    private static void checkEntry(String entry, String key, Optional<Model> keyModel, FallbackCatalog catalog,
            List<String> warnings) {
        String subject = "Fallback chain entry " + LogText.quoted(entry) + " for " + LogText.quoted(key);
        if (entry.indexOf('/') < 0) {
            Optional<Selector.Bare> bare = Selector.parseBare(entry);
            if (bare.isEmpty() || !Families.known(catalog, bare.get().family())) {
                warnings.add(subject + " is not a valid or known model selector.");
            }
            return;
        }
        Optional<FallbackCatalog.Resolved> resolved = catalog.resolve(entry);
        if (resolved.isEmpty()) {
            warnings.add(subject + " is not a valid or known model selector.");
        } else if (keyModel.isPresent() && keyModel.get().selector().equalsIgnoreCase(resolved.get().model().selector())) {
            warnings.add(subject + " cannot reference the same model.");
        } else if (unsupported(resolved.get())) {
            warnings.add(thinkingWarning(subject, resolved.get()));
        }
    }

    private static boolean unsupported(FallbackCatalog.Resolved resolved) {
        return resolved.thinking().map(level -> !FallbackCatalog.supports(resolved.model(), level)).orElse(false);
    }

    private static String thinkingWarning(String subject, FallbackCatalog.Resolved resolved) {
        ThinkingLevel level = resolved.thinking().orElseThrow();
        return subject + " uses thinking level \"" + level.wire() + "\", which is unsupported by "
                + LogText.clip(resolved.model().selector()) + ".";
    }

    static boolean isStringArray(JsonNode node) {
        if (node == null || !node.isArray()) {
            return false;
        }
        for (JsonNode item : node) {
            if (!item.isTextual()) {
                return false;
            }
        }
        return true;
    }

    /** How a non-object is named in the warning. */
    static String describe(JsonNode node) {
        if (node.isNull()) {
            return "null";
        }
        if (node.isArray()) {
            return "an array";
        }
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        return "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
