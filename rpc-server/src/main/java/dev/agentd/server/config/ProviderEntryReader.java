package dev.agentd.server.config;

import dev.agentd.server.runtime.LogText;
import dev.agentd.server.runtime.Suggest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.model.Model;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validates one {@code providers} entry of models.json, field by field, collecting a warning for
 * everything it rejects or defaults. Values of {@code apiKey} and {@code headers} are never quoted
 * in a warning: they may be secrets.
 */
final class ProviderEntryReader {
    static final Set<String> PROVIDER_KEYS = Set.of("baseUrl", "api", "apiKey", "headers", "models");
    static final Set<String> MODEL_KEYS = Set.of("id", "name", "api", "reasoning", "input", "cost", "contextWindow",
            "maxTokens");
    static final Set<String> COST_KEYS = Set.of("input", "output", "cacheRead", "cacheWrite");
    private final String where;
    private final String name;
    private final JsonNode node;
    private final List<String> warnings;

    /** APIs whose endpoint follows from the environment (region, location): no baseUrl needed. */
    private static final Set<String> DERIVED_ENDPOINT_APIS = Set.of("bedrock-converse-stream", "google-vertex");

    ProviderEntryReader(String source, String name, JsonNode node, List<String> warnings) {
        this.where = source + ": provider '" + name + "'";
        this.name = name;
        this.node = node;
        this.warnings = warnings;
    }

    Optional<ModelsConfig.CustomProvider> read() {
        if (name.isBlank()) {
            return skip("has an empty name");
        }
        if (!node.isObject()) {
            return skip("must be an object");
        }
        unknownKeys(where, node, PROVIDER_KEYS, warnings);
        String baseUrl = null;
        JsonNode url = node.path("baseUrl");
        if (!url.isMissingNode()) {
            // Vertex's catalog form names the location as a placeholder the provider fills in.
            if (!url.isTextual() || !ModelsConfig.isHttpUrl(url.textValue().trim().replace("{location}", "global"))) {
                return skip("'baseUrl' must be an http(s) URL");
            }
            baseUrl = url.textValue().trim();
        }
        String api = null;
        JsonNode apiNode = node.path("api");
        if (!apiNode.isMissingNode()) {
            if (!apiNode.isTextual() || !ModelsConfig.APIS.contains(apiNode.textValue())) {
                return skip("'api' must be one of " + ModelsConfig.APIS + ", got " + apiNode);
            }
            api = apiNode.textValue();
        }
        String apiKey = null;
        JsonNode key = node.path("apiKey");
        if (!key.isMissingNode()) {
            if (!key.isTextual() || key.textValue().isBlank()) {
                return skip("'apiKey' must be a non-empty string");
            }
            apiKey = key.textValue();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode headerNode = node.path("headers");
        if (!headerNode.isMissingNode()) {
            if (!headerNode.isObject()) {
                return skip("'headers' must be an object of strings");
            }
            for (Map.Entry<String, JsonNode> header : headerNode.properties()) {
                if (!header.getValue().isTextual() || header.getKey().isBlank()) {
                    return skip("header '" + header.getKey() + "' must have a string value");
                }
                headers.put(header.getKey(), header.getValue().textValue());
            }
        }
        JsonNode modelsNode = node.path("models");
        if (!modelsNode.isMissingNode() && !modelsNode.isArray()) {
            return skip("'models' must be an array");
        }
        if (modelsNode.isMissingNode() || modelsNode.isEmpty()) {
            if (baseUrl == null && headers.isEmpty() && apiKey == null) {
                return skip("has no models and overrides nothing");
            }
            return Optional.of(new ModelsConfig.CustomProvider(name, baseUrl, api, apiKey, headers, List.of()));
        }
        if (baseUrl == null && (api == null || !DERIVED_ENDPOINT_APIS.contains(api))) {
            return skip("defines models but has no 'baseUrl'");
        }
        if (baseUrl == null) {
            baseUrl = ""; // the provider derives it: Bedrock from the region, Vertex from the location
        }
        List<Model> models = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < modelsNode.size(); i++) {
            Model model = model(modelsNode.get(i), i, baseUrl, api);
            if (model != null && !ids.add(model.id())) {
                warn("model '" + model.id() + "' is listed twice; the first entry is used");
            } else if (model != null) {
                models.add(model);
            }
        }
        return Optional.of(new ModelsConfig.CustomProvider(name, baseUrl, api, apiKey, headers, models));
    }

    private Model model(JsonNode entry, int index, String baseUrl, String providerApi) {
        String at = "model #" + (index + 1);
        if (!entry.isObject()) {
            warn(at + " must be an object; skipped");
            return null;
        }
        JsonNode idNode = entry.path("id");
        if (!idNode.isTextual() || idNode.textValue().isBlank()) {
            warn(at + " needs a non-empty string 'id'; skipped");
            return null;
        }
        String id = idNode.textValue();
        at = "model '" + id + "'";
        unknownKeys(where + " " + at, entry, MODEL_KEYS, warnings);
        String api = providerApi;
        JsonNode apiNode = entry.path("api");
        if (!apiNode.isMissingNode()) {
            if (!apiNode.isTextual() || !ModelsConfig.APIS.contains(apiNode.textValue())) {
                warn(at + ": 'api' must be one of " + ModelsConfig.APIS + "; skipped");
                return null;
            }
            api = apiNode.textValue();
        }
        if (api == null) {
            warn(at + " has no 'api' (neither on the model nor on its provider); skipped");
            return null;
        }
        String displayName = id;
        JsonNode nameNode = entry.path("name");
        if (nameNode.isTextual() && !nameNode.textValue().isBlank()) {
            displayName = nameNode.textValue();
        } else if (!nameNode.isMissingNode()) {
            warn(at + ": 'name' must be a non-empty string; using the id");
        }
        boolean reasoning = false;
        JsonNode reasoningNode = entry.path("reasoning");
        if (reasoningNode.isBoolean()) {
            reasoning = reasoningNode.booleanValue();
        } else if (!reasoningNode.isMissingNode()) {
            warn(at + ": 'reasoning' must be a boolean; using false");
        }
        return new Model(id, displayName, api, name, baseUrl, reasoning, input(entry.path("input"), at),
                cost(entry.path("cost"), at),
                positive(entry.path("contextWindow"), ModelsConfig.DEFAULT_CONTEXT_WINDOW, at, "contextWindow"),
                positive(entry.path("maxTokens"), ModelsConfig.DEFAULT_MAX_TOKENS, at, "maxTokens"));
    }

    private List<String> input(JsonNode node, String at) {
        if (node.isMissingNode()) {
            return List.of("text");
        }
        List<String> kinds = new ArrayList<>();
        if (node.isArray()) {
            for (JsonNode kind : node) {
                if (kind.isTextual() && (kind.textValue().equals("text") || kind.textValue().equals("image"))) {
                    if (!kinds.contains(kind.textValue())) {
                        kinds.add(kind.textValue());
                    }
                } else {
                    kinds = null;
                    break;
                }
            }
        }
        if (kinds == null || !node.isArray() || !kinds.contains("text")) {
            warn(at + ": 'input' must be an array of \"text\" and \"image\" including \"text\"; using [\"text\"]");
            return List.of("text");
        }
        return kinds;
    }

    private Model.Cost cost(JsonNode node, String at) {
        if (node.isMissingNode()) {
            return Model.Cost.FREE;
        }
        if (!node.isObject()) {
            warn(at + ": 'cost' must be an object; using 0");
            return Model.Cost.FREE;
        }
        unknownKeys(where + " " + at + " 'cost'", node, COST_KEYS, warnings);
        return new Model.Cost(price(node, "input", at), price(node, "output", at), price(node, "cacheRead", at),
                price(node, "cacheWrite", at));
    }

    private double price(JsonNode cost, String field, String at) {
        JsonNode value = cost.path(field);
        if (value.isMissingNode()) {
            return 0;
        }
        if (!value.isNumber() || value.asDouble() < 0 || !Double.isFinite(value.asDouble())) {
            warn(at + ": 'cost." + field + "' must be a non-negative number; using 0");
            return 0;
        }
        return value.asDouble();
    }

    private long positive(JsonNode value, long fallback, String at, String field) {
        if (value.isMissingNode()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() <= 0) {
            warn(at + ": '" + field + "' must be a positive integer; using " + fallback);
            return fallback;
        }
        return value.asLong();
    }

    /** One warning per key of {@code object} that is not in {@code known}, with the closest known key. */
    static void unknownKeys(String where, JsonNode object, Set<String> known, List<String> warnings) {
        object.fieldNames().forEachRemaining(key -> {
            if (!known.contains(key)) {
                String shown = LogText.clip(key); // escaped: no forged log lines
                warnings.add(where + " unknown key '" + shown + "'" + Suggest.didYouMean(key, known) + "; ignored");
            }
        });
    }

    private Optional<ModelsConfig.CustomProvider> skip(String problem) {
        warn(problem + "; skipped");
        return Optional.empty();
    }

    private void warn(String message) {
        warnings.add(where + " " + message);
    }
}
