package dev.agentd.server.fallback;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The canonical fallback chains: every key and entry a catalog {@code provider/id[:thinking]}
 * (registry casing), bare families expanded, tombstones applied. Immutable.
 *
 * <p>Canonicalization, in two passes so that an explicit qualified key overrides what a bare key
 * expanded to for that provider only:
 * <ol>
 *   <li>bare keys: a tombstone {@code []} tombstones the base of every provider variant of the
 *       family; otherwise each variant (no provider limit) becomes a key with the expanded entries;
 *   <li>qualified keys (unknown ones dropped): a tombstone tombstones that base; otherwise the key
 *       is explicit and its expanded entries replace any pass-1 chain of the same key;
 *   <li>keys whose base is tombstoned are removed unless explicit.
 * </ol>
 * Entry expansion: a bare entry becomes the first {@value #MAX_PROVIDERS_PER_BARE_ENTRY} ranked
 * providers of its family ({@link Families#ranked}) that are not the key model itself; a qualified
 * entry is resolved; unknown entries, entries with a thinking level their model lacks, and entries
 * naming the key model are dropped silently (validation reports them). Entries keep their order,
 * model-major; a repeated entry is kept once (decision: a duplicate could only ever be skipped as
 * already tried).
 */
public final class Chains {
    static final int MAX_PROVIDERS_PER_BARE_ENTRY = 2;
    public static final Chains EMPTY = new Chains(Map.of());

    private final Map<String, List<String>> canonical;

    private Chains(Map<String, List<String>> canonical) {
        this.canonical = Collections.unmodifiableMap(new LinkedHashMap<>(canonical));
    }

    /** Canonicalizes without memo; prefer {@link ChainsMemo#get}. */
    public static Chains canonicalize(Map<String, List<String>> raw, FallbackCatalog catalog, Predicate<String> hasCredential) {
        Map<String, List<String>> result = new LinkedHashMap<>();
        Set<String> tombstones = new HashSet<>();
        Set<String> explicit = new HashSet<>();
        for (Map.Entry<String, List<String>> chain : raw.entrySet()) {
            Optional<Selector.Bare> key = Selector.parseBare(chain.getKey());
            if (key.isEmpty()) {
                continue;
            }
            for (Model variant : Families.ranked(catalog, key.get().family(), hasCredential)) {
                if (chain.getValue().isEmpty()) {
                    tombstones.add(lower(variant.selector()));
                    continue;
                }
                List<String> entries = expand(chain.getValue(), variant, catalog, hasCredential);
                if (!entries.isEmpty()) {
                    result.put(Selector.format(variant, key.get().thinking()), entries);
                }
            }
        }
        for (Map.Entry<String, List<String>> chain : raw.entrySet()) {
            Optional<FallbackCatalog.Resolved> key = chain.getKey().indexOf('/') < 0 ? Optional.empty()
                    : catalog.resolveSupported(chain.getKey());
            if (key.isEmpty()) {
                continue;
            }
            String canonicalKey = key.get().format();
            if (chain.getValue().isEmpty()) {
                tombstones.add(lower(key.get().model().selector()));
                continue;
            }
            explicit.add(canonicalKey);
            List<String> entries = expand(chain.getValue(), key.get().model(), catalog, hasCredential);
            if (!entries.isEmpty()) {
                result.put(canonicalKey, entries);
            }
        }
        result.keySet().removeIf(key -> !explicit.contains(key) && tombstones.contains(lower(Selector.stripThinking(key))));
        return new Chains(result);
    }

    private static List<String> expand(List<String> entries, Model keyModel, FallbackCatalog catalog,
            Predicate<String> hasCredential) {
        Set<String> out = new LinkedHashSet<>();
        Set<String> seen = new HashSet<>();
        String self = lower(keyModel.selector());
        for (String entry : entries) {
            Optional<Selector.Bare> bare = Selector.parseBare(entry);
            if (bare.isPresent()) {
                int taken = 0;
                for (Model model : Families.ranked(catalog, bare.get().family(), hasCredential)) {
                    if (taken == MAX_PROVIDERS_PER_BARE_ENTRY) {
                        break;
                    }
                    if (lower(model.selector()).equals(self) || !thinkingOk(model, bare.get().thinking())) {
                        continue;
                    }
                    taken++;
                    add(out, seen, Selector.format(model, bare.get().thinking()));
                }
                continue;
            }
            catalog.resolveSupported(entry)
                    .filter(resolved -> !lower(resolved.model().selector()).equals(self))
                    .ifPresent(resolved -> add(out, seen, resolved.format()));
        }
        return List.copyOf(out);
    }

    private static boolean thinkingOk(Model model, Optional<ThinkingLevel> thinking) {
        return thinking.map(level -> FallbackCatalog.supports(model, level)).orElse(true);
    }

    private static void add(Set<String> out, Set<String> seen, String selector) {
        if (seen.add(lower(selector))) {
            out.add(selector);
        }
    }

    /** Canonical key → entries, in configuration order (for {@code get_fallback_state}). */
    public Map<String, List<String>> asMap() {
        return canonical;
    }

    public boolean isEmpty() {
        return canonical.isEmpty();
    }

    /** The entries of a canonical key (empty when the key is absent). */
    public List<String> entries(String key) {
        return key == null ? List.of() : canonical.getOrDefault(key, List.of());
    }

    /** The model's own chain: {@code provider/id:thinking} if present, else {@code provider/id}. */
    public Optional<String> ownKey(Model model, ThinkingLevel thinking) {
        if (model == null) {
            return Optional.empty();
        }
        if (thinking != null) {
            String exact = model.selector() + ":" + thinking.wire();
            if (canonical.containsKey(exact)) {
                return Optional.of(exact);
            }
        }
        return canonical.containsKey(model.selector()) ? Optional.of(model.selector()) : Optional.empty();
    }

    /**
     * The chain that governs {@code model}: its own, else the active episode's (so the last rung,
     * which usually has no chain, keeps walking the original one), else none (never falls back).
     */
    public Optional<String> keyFor(Model model, ThinkingLevel thinking, String activeEpisodeKey) {
        Optional<String> own = ownKey(model, thinking);
        if (own.isPresent()) {
            return own;
        }
        return activeEpisodeKey != null && canonical.containsKey(activeEpisodeKey)
                ? Optional.of(activeEpisodeKey) : Optional.empty();
    }

    /**
     * The entries after the current model: after the entry equal to {@code currentSelector}
     * (ignoring case), else after the first entry with the same base, else all of them (the
     * primary, or stale state, starts from the top).
     */
    public List<String> candidatesAfter(String key, String currentSelector) {
        List<String> entries = entries(key);
        if (currentSelector == null) {
            return entries;
        }
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).equalsIgnoreCase(currentSelector)) {
                return entries.subList(i + 1, entries.size());
            }
        }
        String base = Selector.stripThinking(currentSelector);
        for (int i = 0; i < entries.size(); i++) {
            if (Selector.stripThinking(entries.get(i)).equalsIgnoreCase(base)) {
                return entries.subList(i + 1, entries.size());
            }
        }
        return entries;
    }

    /** Warnings for the raw {@code retry.fallbackChains} node ({@link ChainValidation}). */
    public static List<String> validate(JsonNode raw, FallbackCatalog catalog) {
        return ChainValidation.validate(raw, catalog);
    }

    static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Chains chains && chains.canonical.equals(canonical);
    }

    @Override
    public int hashCode() {
        return canonical.hashCode();
    }

    @Override
    public String toString() {
        return "Chains" + canonical;
    }
}
