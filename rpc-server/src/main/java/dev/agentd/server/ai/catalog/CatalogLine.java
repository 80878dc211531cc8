package dev.agentd.server.ai.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One provider line of the catalog to models, checked field by field: the file is ours, but a bad
 * regeneration must fail with the line and the problem rather than ship a model with a zero
 * window or a negative price. The line's {@code api} and {@code baseUrl} are the defaults of its
 * models; a model states its own only where it differs.
 */
final class CatalogLine {
    private CatalogLine() {}

    static Catalog.Parsed parse(JsonNode line, String provider, Function<String, RuntimeException> corrupt) {
        if (!provider.equals(line.path("provider").asText())) {
            throw corrupt.apply("the provider field is not '" + provider + "'");
        }
        String lineApi = text(line, "api", corrupt);
        String lineUrl = line.path("baseUrl").asText("");
        JsonNode models = line.path("models");
        if (!models.isArray() || models.isEmpty()) {
            throw corrupt.apply("provider '" + provider + "' has no models array");
        }
        List<Model> out = new ArrayList<>(models.size());
        Map<String, List<ThinkingLevel>> levels = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (JsonNode node : models) {
            Model model = model(node, provider, lineApi, lineUrl, corrupt);
            if (!ids.add(model.id())) {
                throw corrupt.apply("model id '" + model.id() + "' appears twice");
            }
            out.add(model);
            if (model.reasoning()) {
                levels.put(model.id(), thinking(node, model.id(), corrupt));
            }
        }
        String defaultId = text(line, "default", corrupt);
        if (!ids.contains(defaultId)) {
            throw corrupt.apply("default model '" + defaultId + "' is not among the models");
        }
        // The default first: the daemon picks a provider's first model when no model is named.
        // (A loop, not a sort: a comparator lambda costs milliseconds on a cold path to ready.)
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).id().equals(defaultId)) {
                out.add(0, out.remove(i));
                break;
            }
        }
        return new Catalog.Parsed(defaultId, List.copyOf(out), Map.copyOf(levels));
    }

    private static Model model(JsonNode node, String provider, String lineApi, String lineUrl,
            Function<String, RuntimeException> corrupt) {
        String id = text(node, "id", corrupt);
        Function<String, RuntimeException> named = problem -> corrupt.apply("model '" + id + "': " + problem);
        String api = node.has("api") ? text(node, "api", named) : lineApi;
        String baseUrl = node.has("baseUrl") ? node.path("baseUrl").asText("") : lineUrl;
        List<String> input = new ArrayList<>();
        node.path("input").forEach(kind -> input.add(kind.asText()));
        JsonNode cost = node.path("cost");
        if (!cost.isArray() || cost.size() != 4) {
            throw named.apply("cost must be [input, output, cacheRead, cacheWrite]");
        }
        double[] prices = new double[4];
        for (int i = 0; i < 4; i++) {
            if (!cost.get(i).isNumber() || cost.get(i).asDouble() < 0 || !Double.isFinite(cost.get(i).asDouble())) {
                throw named.apply("prices must be non-negative numbers");
            }
            prices[i] = cost.get(i).asDouble();
        }
        long contextWindow = positive(node, "contextWindow", named);
        long maxTokens = positive(node, "maxTokens", named);
        return new Model(id, node.path("name").asText(id), api, provider, baseUrl,
                node.path("reasoning").asBoolean(false), input.isEmpty() ? List.of("text") : input,
                new Model.Cost(prices[0], prices[1], prices[2], prices[3]), contextWindow, maxTokens);
    }

    private static List<ThinkingLevel> thinking(JsonNode node, String id, Function<String, RuntimeException> corrupt) {
        JsonNode levels = node.path("thinking");
        if (!levels.isArray() || levels.isEmpty()) {
            throw corrupt.apply("model '" + id + "' reasons but lists no thinking levels");
        }
        EnumSet<ThinkingLevel> out = EnumSet.noneOf(ThinkingLevel.class);
        for (JsonNode level : levels) {
            Optional<ThinkingLevel> known = ThinkingLevel.parse(level.asText());
            if (known.isEmpty()) {
                throw corrupt.apply("model '" + id + "': unknown thinking level '" + level.asText() + "'");
            }
            out.add(known.get());
        }
        return List.copyOf(out); // an EnumSet iterates lowest level first
    }

    private static String text(JsonNode node, String field, Function<String, RuntimeException> corrupt) {
        JsonNode value = node.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw corrupt.apply("'" + field + "' must be a non-blank string");
        }
        return value.asText();
    }

    private static long positive(JsonNode node, String field, Function<String, RuntimeException> corrupt) {
        JsonNode value = node.path(field);
        if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() <= 0) {
            throw corrupt.apply("'" + field + "' must be a positive integer");
        }
        return value.asLong();
    }
}
