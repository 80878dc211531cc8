package dev.agentd.protocol.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.UrlCredentials;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.protocol.response.RetryState;
import dev.agentd.protocol.response.SessionState;
import java.util.List;

/**
 * The records of a daemon's first exchange as trees built by hand — {@code ready}, a
 * {@link Response}, {@code get_state}'s {@link SessionState} and its {@link Model} — exactly as
 * {@link Json#mapper()} would build them (field order, absent nulls; {@code WireTreesTest} compares
 * them), so that writing them never waits for an {@code ObjectMapper} (see {@link JsonTrees}).
 */
public final class WireTrees {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private WireTrees() {}

    /** The tree of {@code record} when it is one of the records above or already a tree; else null. */
    public static JsonNode of(Object record) {
        if (record instanceof JsonNode tree) {
            return tree;
        }
        if (record instanceof Response response) {
            return response(response);
        }
        if (record instanceof AgentEvent.Ready ready) {
            return ready(ready);
        }
        if (record instanceof WireTree own) {
            return own.tree();
        }
        if (record instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(WireTree.class::isInstance)) {
            ArrayNode array = NODES.arrayNode(list.size());
            list.forEach(element -> array.add(((WireTree) element).tree()));
            return array;
        }
        return null;
    }

    public static ObjectNode response(Response response) {
        ObjectNode tree = NODES.objectNode();
        text(tree, "id", response.id());
        tree.put("type", response.type());
        text(tree, "command", response.command());
        tree.put("success", response.success());
        if (response.data() != null) {
            tree.set("data", response.data());
        }
        text(tree, "error", response.error());
        return tree;
    }

    public static ObjectNode ready(AgentEvent.Ready ready) {
        ObjectNode tree = NODES.objectNode();
        tree.put("type", ready.type());
        text(tree, "version", ready.version());
        text(tree, "mode", ready.mode());
        if (ready.model() != null) {
            tree.set("model", model(ready.model()));
        }
        strings(tree, "warnings", ready.warnings());
        return tree;
    }

    public static ObjectNode state(SessionState state) {
        ObjectNode tree = NODES.objectNode();
        if (state.model() != null) {
            tree.set("model", model(state.model()));
        }
        if (state.thinkingLevel() != null) {
            tree.put("thinkingLevel", state.thinkingLevel().wire());
        }
        tree.put("isStreaming", state.isStreaming());
        tree.put("isCompacting", state.isCompacting());
        if (state.steeringMode() != null) {
            tree.put("steeringMode", state.steeringMode().wire());
        }
        if (state.followUpMode() != null) {
            tree.put("followUpMode", state.followUpMode().wire());
        }
        text(tree, "sessionFile", state.sessionFile());
        text(tree, "sessionId", state.sessionId());
        text(tree, "sessionName", state.sessionName());
        tree.put("autoCompactionEnabled", state.autoCompactionEnabled());
        tree.put("messageCount", state.messageCount());
        tree.put("pendingMessageCount", state.pendingMessageCount());
        tree.put("autoRetryEnabled", state.autoRetryEnabled());
        tree.put("isRetrying", state.isRetrying());
        tree.put("retryAttempt", state.retryAttempt());
        strings(tree, "warnings", state.warnings());
        if (state.mcpServers() != null) {
            ArrayNode servers = tree.putArray("mcpServers");
            for (var server : state.mcpServers()) {
                ObjectNode entry = servers.addObject().put("name", server.name()).put("transport", server.transport())
                        .put("status", server.status()).put("tools", server.tools());
                text(entry, "error", server.error());
            }
        }
        if (state.rateLimits() != null) {
            ArrayNode limits = tree.putArray("rateLimits");
            state.rateLimits().forEach(limit -> limits.add(rateLimits(limit)));
        }
        if (state.retry() != null && state.retry().resume() != null) {
            RetryState.Resume resume = state.retry().resume();
            ObjectNode node = tree.putObject("retry").putObject("resume");
            text(node, "selector", resume.selector());
            node.put("resumeAt", resume.resumeAt());
            node.put("waitMs", resume.waitMs());
            text(node, "reason", resume.reason());
        }
        return tree;
    }

    /** One selector's rate-limit figures; parts the provider did not send are absent. */
    public static ObjectNode rateLimits(RateLimits limits) {
        ObjectNode tree = NODES.objectNode();
        text(tree, "selector", limits.selector());
        window(tree, "requests", limits.requests());
        window(tree, "tokens", limits.tokens());
        window(tree, "inputTokens", limits.inputTokens());
        window(tree, "outputTokens", limits.outputTokens());
        if (limits.windows() != null) {
            ObjectNode windows = tree.putObject("windows");
            limits.windows().forEach((name, window) -> window(windows, name, window));
        }
        text(tree, "status", limits.status());
        if (limits.utilization() != null) {
            tree.put("utilization", limits.utilization());
        }
        tree.put("updatedAt", limits.updatedAt());
        return tree;
    }

    private static void window(ObjectNode parent, String name, RateLimits.Window window) {
        if (window == null) {
            return;
        }
        ObjectNode tree = parent.putObject(name);
        if (window.limit() != null) {
            tree.put("limit", window.limit());
        }
        if (window.remaining() != null) {
            tree.put("remaining", window.remaining());
        }
        if (window.resetAt() != null) {
            tree.put("resetAt", window.resetAt());
        }
        if (window.utilization() != null) {
            tree.put("utilization", window.utilization());
        }
        text(tree, "status", window.status());
    }

    public static ObjectNode model(Model model) {
        ObjectNode tree = NODES.objectNode();
        text(tree, "id", model.id());
        text(tree, "name", model.name());
        text(tree, "api", model.api());
        text(tree, "provider", model.provider());
        text(tree, "baseUrl", UrlCredentials.forDisplay(model.baseUrl()));
        tree.put("reasoning", model.reasoning());
        strings(tree, "input", model.input());
        ObjectNode cost = tree.putObject("cost");
        cost.put("input", model.cost().input());
        cost.put("output", model.cost().output());
        cost.put("cacheRead", model.cost().cacheRead());
        cost.put("cacheWrite", model.cost().cacheWrite());
        tree.put("contextWindow", model.contextWindow());
        tree.put("maxTokens", model.maxTokens());
        return tree;
    }

    private static void text(ObjectNode tree, String name, String value) {
        if (value != null) {
            tree.put(name, value);
        }
    }

    private static void strings(ObjectNode tree, String name, List<String> values) {
        if (values != null) {
            ArrayNode array = tree.putArray(name);
            for (String value : values) {
                array.add(value);
            }
        }
    }
}
