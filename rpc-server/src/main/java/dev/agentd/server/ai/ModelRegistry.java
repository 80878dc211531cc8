package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.catalog.Catalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Every model agentd knows (built-in catalog, models.json, faux), in a stable order, and the extra
 * HTTP headers configured for each (resolved on demand: values may be {@code !commands}). The
 * built-in part is read lazily from {@link Catalog}: a lookup of one provider parses only that
 * provider's line; {@link #all()} (model lists, bare ids, family expansion, suggestions) parses
 * every line, once.
 */
public final class ModelRegistry {
    /** What every view of one registry shares (the views differ only in {@link #listsEmbedded}). */
    private static final class Contents {
        final Catalog catalog;
        /** Applies models.json to one provider's built-in models (overridden baseUrl, replaced ids). */
        final UnaryOperator<List<Model>> adjust;
        final List<Model> custom;
        final List<String> providers;
        /** Lower-cased provider name → its models (built-in, then custom) and their index. */
        final Map<String, Group> groups = new ConcurrentHashMap<>();
        volatile List<Model> all;

        Contents(Catalog catalog, UnaryOperator<List<Model>> adjust, List<Model> custom) {
            this.catalog = catalog;
            this.adjust = adjust;
            this.custom = List.copyOf(custom);
            Set<String> names = new LinkedHashSet<>(catalog.providers());
            this.custom.forEach(model -> names.add(model.provider()));
            this.providers = List.copyOf(names);
        }

        List<Model> all() {
            List<Model> done = all;
            if (done == null) {
                List<Model> models = new ArrayList<>();
                catalog.providers().forEach(provider -> models.addAll(adjust.apply(catalog.models(provider))));
                models.addAll(custom);
                done = List.copyOf(models);
                all = done;
            }
            return done;
        }

        Group group(String provider) {
            return groups.computeIfAbsent(provider.toLowerCase(Locale.ROOT), lower -> {
                List<Model> models = new ArrayList<>();
                for (String name : catalog.providers()) {
                    if (name.equalsIgnoreCase(lower)) {
                        models.addAll(adjust.apply(catalog.models(name)));
                    }
                }
                custom.stream().filter(model -> model.provider().equalsIgnoreCase(lower)).forEach(models::add);
                return new Group(models);
            });
        }
    }

    /** The models of one provider name (ignoring case), in registry order, indexed by lower-cased id. */
    private record Group(List<Model> models, Map<String, Model> byLowerId) {
        Group(List<Model> models) {
            this(List.copyOf(models), index(models));
        }

        private static Map<String, Model> index(List<Model> models) {
            Map<String, Model> byId = new HashMap<>();
            models.forEach(model -> byId.putIfAbsent(model.id().toLowerCase(Locale.ROOT), model));
            return Map.copyOf(byId);
        }
    }

    private final Contents contents;
    private final Function<Model, Map<String, String>> headers;
    private final boolean listsEmbedded;

    public ModelRegistry(List<Model> models) {
        this(models, model -> Map.of());
    }

    public ModelRegistry(List<Model> models, Function<Model, Map<String, String>> headers) {
        this(new Contents(Catalog.empty(), UnaryOperator.identity(), models), headers, false);
    }

    private ModelRegistry(Contents contents, Function<Model, Map<String, String>> headers, boolean listsEmbedded) {
        this.contents = contents;
        this.headers = headers;
        this.listsEmbedded = listsEmbedded;
    }

    /**
     * The built-in catalog's models, each provider's passed through {@code adjust} (models.json's
     * overrides) when first needed, followed by {@code custom} (models.json's models, faux).
     */
    public static ModelRegistry withCatalog(Catalog catalog, UnaryOperator<List<Model>> adjust, List<Model> custom,
            Function<Model, Map<String, String>> headers) {
        return new ModelRegistry(new Contents(catalog, adjust, custom), headers, false);
    }

    /**
     * The same registry, saying whether model lists show the embedded credential-free models even
     * when configured ones are available: pi lists configured models only, so agentd shows its
     * faux models only when nothing else is available or when they were asked for by name
     * ({@code --model faux/…}, {@code --faux-script}).
     */
    public ModelRegistry listingEmbedded(boolean list) {
        return new ModelRegistry(contents, headers, list);
    }

    public boolean listsEmbedded() {
        return listsEmbedded;
    }

    /** The resolved extra headers of a model (empty for most). */
    public Map<String, String> headers(Model model) {
        return headers.apply(model);
    }

    /** Every model (parses the whole built-in catalog on first use). */
    public List<Model> all() {
        return contents.all();
    }

    /** Provider names, built-in first, without parsing any model. */
    public List<String> providers() {
        return contents.providers;
    }

    /**
     * The models of the provider named exactly {@code provider}, the catalog's default for it
     * first (pi's default model per provider), parsing only that provider's catalog line.
     */
    public List<Model> ofProvider(String provider) {
        String defaultId = contents.catalog.defaultId(provider).orElse(null);
        List<Model> models = new ArrayList<>();
        for (Model model : contents.group(provider).models()) {
            if (model.provider().equals(provider)) {
                // A models.json model that replaced the default follows the catalog: move it up.
                models.add(model.id().equals(defaultId) ? 0 : models.size(), model);
            }
        }
        return List.copyOf(models);
    }

    /** The model named exactly {@code provider/id}. */
    public Optional<Model> find(String provider, String id) {
        Group group = contents.group(provider);
        Model indexed = group.byLowerId().get(id.toLowerCase(Locale.ROOT));
        if (indexed != null && indexed.provider().equals(provider) && indexed.id().equals(id)) {
            return Optional.of(indexed);
        }
        // Two models whose names differ only in case: the index holds the first.
        return indexed == null ? Optional.empty() : group.models().stream()
                .filter(model -> model.provider().equals(provider) && model.id().equals(id)).findFirst();
    }

    /** The first model named {@code provider/id}, compared case-insensitively (chain selectors). */
    public Optional<Model> findIgnoringCase(String provider, String id) {
        return Optional.ofNullable(contents.group(provider).byLowerId().get(id.toLowerCase(Locale.ROOT)));
    }

    /** A model and the thinking level written after it, if any. */
    public record Selection(Model model, ThinkingLevel thinkingLevel) {}

    /**
     * Resolves {@code id}, {@code provider/id} or {@code provider/id:thinking} (SPEC §2), thinking
     * one of off, minimal, low, medium, high, xhigh, max. The suffix is split at the last colon
     * only when it names a thinking level, so ids containing colons (e.g. {@code llama3.1:8b})
     * survive; when no model has the shortened id, the whole text is tried as the id (so
     * {@code qwen3:max} stays a model, not qwen3 at level max). A bare id matches the first model
     * with that id.
     */
    public Optional<Selection> resolve(String spec) {
        if (spec == null || spec.isBlank()) {
            return Optional.empty();
        }
        String body = spec.trim();
        int colon = body.lastIndexOf(':');
        if (colon > 0) {
            Optional<ThinkingLevel> level = ThinkingLevel.parse(body.substring(colon + 1));
            if (level.isPresent()) {
                Optional<Selection> split = lookup(body.substring(0, colon), level.get());
                if (split.isPresent()) {
                    return split;
                }
            }
        }
        return lookup(body, null);
    }

    private Optional<Selection> lookup(String body, ThinkingLevel thinking) {
        int slash = body.indexOf('/');
        if (slash > 0) {
            String provider = body.substring(0, slash);
            String id = body.substring(slash + 1);
            Optional<Model> exact = find(provider, id);
            if (exact.isPresent()) {
                return exact.map(model -> new Selection(model, thinking));
            }
        }
        return firstWithId(body).map(model -> new Selection(model, thinking));
    }

    /**
     * The first model of {@link #all()}'s order with this id, parsing the built-in catalog provider
     * by provider only until it is found ({@code --model claude-opus-4-5} reads one line).
     */
    private Optional<Model> firstWithId(String id) {
        List<Model> done = contents.all;
        if (done != null) {
            return done.stream().filter(model -> model.id().equals(id)).findFirst();
        }
        for (String provider : contents.catalog.providers()) {
            for (Model model : contents.adjust.apply(contents.catalog.models(provider))) {
                if (model.id().equals(id)) {
                    return Optional.of(model);
                }
            }
        }
        return contents.custom.stream().filter(model -> model.id().equals(id)).findFirst();
    }
}
