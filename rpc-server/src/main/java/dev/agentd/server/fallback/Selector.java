package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.Locale;
import java.util.Optional;

/**
 * A chain selector as written in settings: {@code provider/id[:thinking]} ({@link Qualified}) or a
 * bare model family such as {@code claude-opus-4} ({@link Bare}). This is the syntax only;
 * {@link FallbackCatalog#resolve} checks a qualified selector against the known models.
 *
 * <p>The thinking suffix is split at the LAST colon, and only when the text after it is a level
 * known to {@link ThinkingLevel} (compared case-insensitively), so colons inside ids survive:
 * {@code openrouter/qwen/qwen3-coder:exacto} is the id {@code qwen/qwen3-coder:exacto}.
 */
public sealed interface Selector permits Selector.Qualified, Selector.Bare {

    Optional<ThinkingLevel> thinking();

    /** The selector as written back: {@code provider/id[:level]} or {@code family[:level]}. */
    String format();

    /** Without the thinking suffix. */
    String base();

    /** {@code provider/id[:thinking]}; provider and id are non-empty. */
    record Qualified(String provider, String id, Optional<ThinkingLevel> thinking) implements Selector {
        @Override
        public String base() {
            return provider + "/" + id;
        }

        @Override
        public String format() {
            return withThinking(base(), thinking);
        }
    }

    /** A model family (lowercased), matched by {@link Families}. */
    record Bare(String family, Optional<ThinkingLevel> thinking) implements Selector {
        @Override
        public String base() {
            return family;
        }

        @Override
        public String format() {
            return withThinking(family, thinking);
        }
    }

    /** Parses either form; empty for blank text, wildcards, or a malformed qualified selector. */
    static Optional<Selector> parse(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        String text = raw.trim();
        if (text.isEmpty() || text.indexOf('*') >= 0) {
            return Optional.empty();
        }
        return text.indexOf('/') >= 0 ? parseQualified(text).map(s -> s) : parseBare(text).map(s -> s);
    }

    /** {@code provider/id[:thinking]}, or empty when there is no slash, a wildcard, or an empty part. */
    static Optional<Qualified> parseQualified(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        String text = raw.trim();
        if (text.indexOf('/') < 0 || text.indexOf('*') >= 0) {
            return Optional.empty();
        }
        Optional<ThinkingLevel> thinking = suffixLevel(text);
        String reference = thinking.isPresent() ? text.substring(0, text.lastIndexOf(':')) : text;
        int slash = reference.indexOf('/');
        String provider = reference.substring(0, slash);
        String id = reference.substring(slash + 1);
        if (provider.isEmpty() || id.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Qualified(provider, id, thinking));
    }

    /** A family: non-empty, no slash, no wildcard; the family is lowercased. */
    static Optional<Bare> parseBare(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        String text = raw.trim();
        if (text.isEmpty() || text.indexOf('/') >= 0 || text.indexOf('*') >= 0) {
            return Optional.empty();
        }
        Optional<ThinkingLevel> thinking = suffixLevel(text);
        String family = thinking.isPresent() ? text.substring(0, text.lastIndexOf(':')) : text;
        if (family.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Bare(family.toLowerCase(Locale.ROOT), thinking));
    }

    /** The level after the last colon, when that text names one. */
    static Optional<ThinkingLevel> suffixLevel(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        return ThinkingLevel.parse(text.substring(colon + 1).trim().toLowerCase(Locale.ROOT));
    }

    /** {@code text} without a trailing thinking-level suffix. */
    static String stripThinking(String text) {
        return suffixLevel(text).isPresent() ? text.substring(0, text.lastIndexOf(':')) : text;
    }

    /** {@code provider/id[:level]} for a catalog model (registry casing). */
    static String format(Model model, Optional<ThinkingLevel> thinking) {
        return withThinking(model.selector(), thinking);
    }

    private static String withThinking(String base, Optional<ThinkingLevel> thinking) {
        return thinking.map(level -> base + ":" + level.wire()).orElse(base);
    }
}
