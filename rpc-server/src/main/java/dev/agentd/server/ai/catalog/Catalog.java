package dev.agentd.server.ai.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The models agentd knows without a models.json (SPEC §6.1): {@code models.jsonl} beside this
 * class, generated from pi's own catalog by {@code tools/catalog/generate.mjs} (README, "Built-in
 * models"). Its first line says which pi-ai version and date it was made from; then one line per
 * provider. Reading it is lazy: opening the catalog splits the lines and reads each provider's
 * name, and a provider's line is parsed only when that provider is asked for, because parsing
 * all of it (~840 models) in a cold JVM costs tens of milliseconds of start-up. Prices are USD per
 * million tokens (pi's cost tiers are not modelled: the base price is kept).
 */
public final class Catalog {
    static final String RESOURCE = "models.jsonl";
    /** The shipped file is ~180 KB; a bound keeps a broken build from reading anything huge. */
    static final int MAX_BYTES = 4 << 20;
    private static final String PROVIDER_PREFIX = "{\"provider\":\"";

    /** The first line: where the data came from and when. */
    public record Header(String source, String defaults, String generated) {}

    /** One provider's models, its default first, and the thinking levels of its reasoning models. */
    record Parsed(String defaultId, List<Model> models, Map<String, List<ThinkingLevel>> levels) {}

    private final String source;
    private final String headerLine;
    /** Provider → its raw line and line number, in file order. */
    private final Map<String, String> lines;
    private final Map<String, Integer> lineNumbers;
    private final Map<String, Parsed> parsed = new HashMap<>();
    private final AtomicInteger parses = new AtomicInteger();

    private Catalog(String source, String headerLine, Map<String, String> lines, Map<String, Integer> lineNumbers) {
        this.source = source;
        this.headerLine = headerLine;
        this.lines = lines;
        this.lineNumbers = lineNumbers;
    }

    /** The catalog shipped in the jar, read once. */
    public static Catalog builtin() {
        return Shipped.CATALOG;
    }

    /** A catalog without models (registries built from a plain list). */
    public static Catalog empty() {
        return new Catalog("empty catalog", null, Map.of(), Map.of());
    }

    /**
     * Splits catalog text into its lines without parsing them. A line that does not start with a
     * provider name fails here, naming the line.
     */
    public static Catalog of(String text, String source) {
        String[] all = text.split("\n");
        if (all.length == 0 || all[0].isBlank()) {
            throw corrupt(source, 1, "the header line is missing");
        }
        Map<String, String> lines = new LinkedHashMap<>();
        Map<String, Integer> numbers = new HashMap<>();
        for (int i = 1; i < all.length; i++) {
            String line = all[i];
            if (line.isBlank()) {
                continue;
            }
            String provider = providerOf(line);
            if (provider == null) {
                throw corrupt(source, i + 1, "a provider line must start with " + PROVIDER_PREFIX + "<name>\"");
            }
            if (lines.putIfAbsent(provider, line) != null) {
                throw corrupt(source, i + 1, "provider '" + provider + "' appears twice");
            }
            numbers.put(provider, i + 1);
        }
        return new Catalog(source, all[0], lines, numbers);
    }

    /** Provider names in file order (no line is parsed). */
    public List<String> providers() {
        return List.copyOf(lines.keySet());
    }

    public boolean has(String provider) {
        return lines.containsKey(provider);
    }

    /** A provider's models, its default first; empty for a provider the catalog lacks. */
    public List<Model> models(String provider) {
        Parsed line = parsed(provider);
        return line == null ? List.of() : line.models();
    }

    /** pi's default model of a provider. */
    public Optional<String> defaultId(String provider) {
        Parsed line = parsed(provider);
        return line == null ? Optional.empty() : Optional.of(line.defaultId());
    }

    /** Every model, provider by provider (parses every line). */
    public List<Model> all() {
        List<Model> all = new ArrayList<>();
        lines.keySet().forEach(provider -> all.addAll(models(provider)));
        return List.copyOf(all);
    }

    /**
     * The thinking levels pi's catalog gives {@code model}, when it is this catalog's model of that
     * provider and id speaking the same api with the same reasoning flag (a models.json model that
     * replaces it says nothing about levels, so it gets none from here).
     */
    public Optional<List<ThinkingLevel>> thinkingLevels(Model model) {
        if (model == null || !lines.containsKey(model.provider())) {
            return Optional.empty();
        }
        Parsed line = parsed(model.provider());
        for (Model known : line.models()) {
            if (known.id().equals(model.id())) {
                boolean same = known.api().equals(model.api()) && known.reasoning() == model.reasoning();
                return same ? Optional.ofNullable(line.levels().get(known.id())) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Where the data came from: the header line. */
    public Header header() {
        if (headerLine == null) {
            return new Header("", "", "");
        }
        JsonNode node = read(headerLine, 1);
        return new Header(node.path("source").asText(""), node.path("defaults").asText(""),
                node.path("generated").asText(""));
    }

    /** How many provider lines have been parsed so far (the laziness is tested through it). */
    public int parses() {
        return parses.get();
    }

    private synchronized Parsed parsed(String provider) {
        Parsed done = parsed.get(provider);
        if (done == null && lines.containsKey(provider)) {
            parses.incrementAndGet();
            done = CatalogLine.parse(read(lines.get(provider), lineNumbers.get(provider)), provider,
                    problem -> corrupt(source, lineNumbers.get(provider), problem));
            parsed.put(provider, done);
        }
        return done;
    }

    private JsonNode read(String line, int number) {
        try {
            JsonNode node = JsonTrees.read(line.getBytes(StandardCharsets.UTF_8));
            if (!node.isObject()) {
                throw corrupt(source, number, "not a JSON object");
            }
            return node;
        } catch (IOException e) {
            String message = String.valueOf(e.getMessage());
            int newline = message.indexOf('\n');
            throw corrupt(source, number, "not JSON (" + (newline < 0 ? message : message.substring(0, newline)) + ")");
        }
    }

    private static String providerOf(String line) {
        if (!line.startsWith(PROVIDER_PREFIX)) {
            return null;
        }
        int end = line.indexOf('"', PROVIDER_PREFIX.length());
        String name = end < 0 ? "" : line.substring(PROVIDER_PREFIX.length(), end);
        // [a-z0-9][a-z0-9-]*, checked without a regex: this runs on the path to ready.
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c == '-' && i > 0))) {
                return null;
            }
        }
        return name.isEmpty() ? null : name;
    }

    static IllegalStateException corrupt(String source, int line, String problem) {
        return new IllegalStateException("built-in model catalog " + source + " line " + line + ": " + problem);
    }

    /** Loaded on first use of {@link #builtin()}. */
    private static final class Shipped {
        static final Catalog CATALOG = load();

        private static Catalog load() {
            try (InputStream in = Catalog.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("built-in model catalog " + RESOURCE + " is missing from the jar");
                }
                byte[] bytes = in.readNBytes(MAX_BYTES + 1);
                if (bytes.length > MAX_BYTES) {
                    throw new IllegalStateException("built-in model catalog " + RESOURCE + " is over "
                            + MAX_BYTES + " bytes");
                }
                return of(new String(bytes, StandardCharsets.UTF_8), RESOURCE);
            } catch (IOException e) {
                throw new UncheckedIOException("built-in model catalog " + RESOURCE + " could not be read", e);
            }
        }
    }
}
