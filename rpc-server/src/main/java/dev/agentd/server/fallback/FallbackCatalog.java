package dev.agentd.server.fallback;

import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.server.ai.ModelRegistry;
import dev.agentd.server.ai.ThinkingSupport;
import java.util.List;
import java.util.Optional;

/**
 * The known models as fallback sees them: case-insensitive {@code provider/id} lookup in constant
 * time through the registry's own index (a candidate scan looks up every rung), and
 * qualified-selector resolution. Immutable; build one per model registry and reuse it (the chain
 * memo compares catalogs by their model lists).
 */
public final class FallbackCatalog {
    private final ModelRegistry registry;
    private final List<String> providers;
    private final String awsRegion;

    private FallbackCatalog(ModelRegistry registry, String awsRegion) {
        this.registry = registry;
        this.awsRegion = awsRegion;
        this.providers = registry.providers(); // names only: no built-in catalog line is parsed
    }

    public static FallbackCatalog of(List<Model> models) {
        return new FallbackCatalog(new ModelRegistry(models), null);
    }

    public static FallbackCatalog of(ModelRegistry registry) {
        return new FallbackCatalog(registry, null);
    }

    /**
     * The same catalog for a process whose AWS region is {@code awsRegion} (null: unknown, read as
     * us-east-1): it decides which Bedrock inference profile a bare selector picks.
     */
    public FallbackCatalog withAwsRegion(String awsRegion) {
        return new FallbackCatalog(registry, awsRegion);
    }

    /** The AWS region Bedrock variants are picked for, or null. */
    public String awsRegion() {
        return awsRegion;
    }

    public List<Model> models() {
        return registry.all();
    }

    /** Provider names in catalog order. */
    public List<String> providers() {
        return providers;
    }

    /** The model named {@code provider/id}, compared case-insensitively. */
    public Optional<Model> find(String provider, String id) {
        return registry.findIgnoringCase(provider, id);
    }

    /** A model and the thinking level its selector asked for (not yet checked against the model). */
    public record Resolved(Model model, Optional<ThinkingLevel> thinking) {
        public String format() {
            return Selector.format(model, thinking);
        }
    }

    /**
     * Resolves a qualified selector to a catalog model. The whole text is first tried as a
     * {@code provider/id} reference (an id that itself ends in {@code :high} wins over reading
     * {@code :high} as a level); else the thinking suffix is split off and the id is looked up among
     * that provider's models. agentd has no model aliases, so ids match exactly (ignoring case).
     * Whether the model supports the level is a separate question: {@link #supports}.
     */
    public Optional<Resolved> resolve(String raw) {
        Optional<Selector.Qualified> parsed = Selector.parseQualified(raw);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        String text = raw.trim();
        int slash = text.indexOf('/');
        Optional<Model> whole = find(text.substring(0, slash), text.substring(slash + 1));
        if (whole.isPresent()) {
            return Optional.of(new Resolved(whole.get(), Optional.empty()));
        }
        Selector.Qualified selector = parsed.get();
        return find(selector.provider(), selector.id()).map(model -> new Resolved(model, selector.thinking()));
    }

    /** Like {@link #resolve}, but empty when the model does not support the requested level. */
    public Optional<Resolved> resolveSupported(String raw) {
        return resolve(raw).filter(resolved -> resolved.thinking().map(level -> supports(resolved.model(), level))
                .orElse(true));
    }

    /** Whether {@code model} accepts {@code level} ({@link ThinkingSupport#levels}). */
    public static boolean supports(Model model, ThinkingLevel level) {
        return ThinkingSupport.levels(model).contains(level);
    }
}
