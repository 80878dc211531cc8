package dev.agentd.server.config;

import dev.agentd.server.runtime.JsonProblems;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.Model;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code <agentDir>/models.json} (SPEC §2, pi-compatible): custom providers and their models.
 * Every field is checked: a malformed file is reported and ignored, a bad provider entry is
 * skipped, a bad model is skipped, a bad optional model field falls back to its default — each
 * with one warning naming the place. An entry without {@code models} overrides the
 * {@code baseUrl}/{@code headers} of the built-in models of that provider. Key and header values
 * are kept as specs ({@code !command}, env var name, literal) and never logged.
 */
public final class ModelsConfig {
    private static final Logger LOG = LoggerFactory.getLogger(ModelsConfig.class);
    public static final Set<String> APIS = Set.of("anthropic-messages", "openai-completions",
            "openai-responses", "azure-openai-responses", "google-generative-ai",
            "bedrock-converse-stream", "google-vertex");
    public static final long DEFAULT_CONTEXT_WINDOW = 128_000;
    public static final long DEFAULT_MAX_TOKENS = 16_384;
    static final Set<String> TOP_LEVEL_KEYS = Set.of("providers");

    /**
     * One {@code providers} entry.
     *
     * @param apiKeySpec the {@code apiKey} spec, or null
     * @param headerSpecs header name → value spec
     * @param models empty for an override of a built-in provider
     */
    public record CustomProvider(String name, String baseUrl, String api, String apiKeySpec,
            Map<String, String> headerSpecs, List<Model> models) {
        public CustomProvider {
            headerSpecs = Map.copyOf(headerSpecs);
            models = List.copyOf(models);
        }
    }

    private final List<CustomProvider> providers;
    private final List<String> warnings;

    private ModelsConfig(List<CustomProvider> providers, List<String> warnings) {
        this.providers = List.copyOf(providers);
        this.warnings = List.copyOf(warnings);
    }

    public static ModelsConfig empty() {
        return new ModelsConfig(List.of(), List.of());
    }

    /** Reads the file; a missing file is an empty config. */
    public static ModelsConfig load(Path file) {
        if (file == null || !Files.exists(file)) {
            return empty();
        }
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            return failed(List.of(file + " could not be read; ignoring it"));
        }
    }

    /** Parses models.json text; {@code source} names it in warnings. */
    public static ModelsConfig parse(String text, String source) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(text);
        } catch (IOException e) {
            return failed(List.of("malformed JSON: " + JsonProblems.describe(source, e) + "; ignoring the file"));
        }
        if (root == null || root.isMissingNode()) {
            return empty();
        }
        if (!root.isObject()) {
            return failed(List.of(source + " is not a JSON object; ignoring it"));
        }
        List<String> warnings = new ArrayList<>();
        ProviderEntryReader.unknownKeys(source + ":", root, TOP_LEVEL_KEYS, warnings);
        JsonNode entries = root.path("providers");
        if (entries.isMissingNode()) {
            return failed(warnings);
        }
        if (!entries.isObject()) {
            warnings.add(source + ": 'providers' must be an object; ignoring the file");
            return failed(warnings);
        }
        List<CustomProvider> providers = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : entries.properties()) {
            new ProviderEntryReader(source, entry.getKey(), entry.getValue(), warnings).read().ifPresent(providers::add);
        }
        warnings.forEach(LOG::warn);
        return new ModelsConfig(providers, warnings);
    }

    private static ModelsConfig failed(List<String> warnings) {
        warnings.forEach(LOG::warn);
        return new ModelsConfig(List.of(), warnings);
    }

    public List<CustomProvider> providers() {
        return providers;
    }

    /** What was wrong with the file (already logged). */
    public List<String> warnings() {
        return warnings;
    }

    /** The custom models, in file order. */
    public List<Model> models() {
        return providers.stream().flatMap(provider -> provider.models().stream()).toList();
    }

    /** Provider → {@code apiKey} spec, for {@code AuthStore.setModelsJsonKey}. */
    public Map<String, String> apiKeySpecs() {
        Map<String, String> specs = new LinkedHashMap<>();
        providers.stream().filter(p -> p.apiKeySpec() != null).forEach(p -> specs.put(p.name(), p.apiKeySpec()));
        return specs;
    }

    /**
     * The providers that need no credential: a custom provider of its own (it defines models
     * and a {@code baseUrl}) with no {@code apiKey}, such as Ollama, vLLM or llama.cpp serving on
     * loopback. Requests to it carry no auth header. Deliberately not limited to loopback (a
     * keyless server may sit on the LAN) and with no extra {@code "auth": "none"} switch: leaving
     * {@code apiKey} out is the statement. A built-in provider's name keeps needing a key (an
     * entry that only overrides its baseUrl still talks to a server that checks one).
     */
    public Set<String> keylessProviders(Set<String> builtinProviders) {
        Set<String> keyless = new LinkedHashSet<>();
        providers.stream().filter(p -> p.apiKeySpec() == null && !p.models().isEmpty() && p.baseUrl() != null)
                .filter(p -> !builtinProviders.contains(p.name())).forEach(p -> keyless.add(p.name()));
        return keyless;
    }

    /** The header specs configured for a model's provider (empty for most). */
    public Map<String, String> headerSpecs(Model model) {
        Map<String, String> specs = new LinkedHashMap<>();
        providers.stream().filter(p -> p.name().equals(model.provider()))
                .forEach(p -> specs.putAll(p.headerSpecs()));
        return specs;
    }

    /**
     * Resolved headers per model for {@code ModelRegistry}: {@code resolve} is given a spec and a
     * purpose (e.g. {@code SecretResolver::resolve}); unresolvable values are left out.
     */
    public Function<Model, Map<String, String>> headers(BiFunction<String, String, Optional<String>> resolve) {
        return model -> {
            Map<String, String> resolved = new LinkedHashMap<>();
            headerSpecs(model).forEach((name, spec) -> resolve.apply(spec,
                    "header " + name + " of " + model.provider()).ifPresent(value -> resolved.put(name, value)));
            return resolved;
        };
    }

    /**
     * The built-in catalog with this file applied: overrides rewrite the baseUrl of their
     * provider's built-in models; custom models replace a built-in of the same provider and id
     * and otherwise follow the catalog.
     */
    public List<Model> mergeWith(List<Model> builtin) {
        List<Model> merged = new ArrayList<>(adjust(builtin));
        merged.addAll(models());
        return merged;
    }

    /**
     * This file applied to built-in models (one provider's or all): each takes its provider's
     * overriding baseUrl, and one a custom model replaces (same provider and id) is left out: the
     * custom one follows the catalog instead ({@link #mergeWith}).
     */
    public List<Model> adjust(List<Model> builtin) {
        if (providers.isEmpty()) {
            return builtin;
        }
        List<Model> custom = models();
        List<Model> adjusted = new ArrayList<>();
        for (Model model : builtin) {
            Optional<CustomProvider> override = providers.stream()
                    .filter(p -> p.name().equals(model.provider()) && p.models().isEmpty() && p.baseUrl() != null)
                    .findFirst();
            Model effective = override.map(p -> new Model(model.id(), model.name(), model.api(), model.provider(),
                    p.baseUrl(), model.reasoning(), model.input(), model.cost(), model.contextWindow(),
                    model.maxTokens())).orElse(model);
            boolean replaced = custom.stream().anyMatch(c -> c.provider().equals(model.provider())
                    && c.id().equals(model.id()));
            if (!replaced) {
                adjusted.add(effective);
            }
        }
        return adjusted;
    }

    static boolean isHttpUrl(String text) {
        try {
            URI uri = URI.create(text);
            String scheme = uri.getScheme();
            return scheme != null && (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
