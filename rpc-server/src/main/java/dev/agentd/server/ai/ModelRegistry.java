package dev.agentd.server.ai;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every model agentd knows (built-in catalog, models.json, faux), in a stable order, and the extra
 * HTTP headers configured for each (resolved on demand: values may be {@code !commands}).
 */
public final class ModelRegistry {
    private final List<Model> models;
    /** {@code provider/id}, lower-cased → the first model so named: the one index of known models. */
    private final Map<String, Model> index;
    private final Function<Model, Map<String, String>> headers;
    private final boolean listsEmbedded;

    public ModelRegistry(List<Model> models) {
        this(models, model -> Map.of());
    }

    public ModelRegistry(List<Model> models, Function<Model, Map<String, String>> headers) {
        this(models, headers, false);
    }

    private ModelRegistry(List<Model> models, Function<Model, Map<String, String>> headers, boolean listsEmbedded) {
        this.models = List.copyOf(models);
        Map<String, Model> byName = new HashMap<>();
        for (Model model : this.models) {
            byName.putIfAbsent(key(model.provider(), model.id()), model);
        }
        this.index = Map.copyOf(byName);
        this.headers = headers;
        this.listsEmbedded = listsEmbedded;
    }

    /**
     * The same registry, saying whether model lists show the embedded credential-free models even
     * when configured ones are available: pi lists configured models only, so agentd shows its
     * faux models only when nothing else is available or when they were asked for by name
     * ({@code --model faux/…}, {@code --faux-script}).
     */
    public ModelRegistry listingEmbedded(boolean list) {
        return new ModelRegistry(models, headers, list);
    }

    public boolean listsEmbedded() {
        return listsEmbedded;
    }

    /** The resolved extra headers of a model (empty for most). */
    public Map<String, String> headers(Model model) {
        return headers.apply(model);
    }

    public List<Model> all() {
        return models;
    }

    /** The model named exactly {@code provider/id}. */
    public Optional<Model> find(String provider, String id) {
        Model indexed = index.get(key(provider, id));
        if (indexed != null && indexed.provider().equals(provider) && indexed.id().equals(id)) {
            return Optional.of(indexed);
        }
        // Two models whose names differ only in case: the index holds the first.
        return indexed == null ? Optional.empty() : models.stream()
                .filter(model -> model.provider().equals(provider) && model.id().equals(id)).findFirst();
    }

    /** The first model named {@code provider/id}, compared case-insensitively (chain selectors). */
    public Optional<Model> findIgnoringCase(String provider, String id) {
        return Optional.ofNullable(index.get(key(provider, id)));
    }

    private static String key(String provider, String id) {
        return (provider + "/" + id).toLowerCase(Locale.ROOT);
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
        return models.stream().filter(model -> model.id().equals(body)).findFirst()
                .map(model -> new Selection(model, thinking));
    }
}
