package dev.agentd.server.tools;

import dev.agentd.server.ai.ToolDefinition;
import dev.agentd.server.runtime.CancellationToken;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tools enabled for a session, by name, in the order they are announced to the model: the
 * built-in ones, then those of a {@link ToolSource} (MCP servers), read afresh at each request. A
 * built-in name always wins (MCP names are namespaced, so they never meet).
 */
public final class ToolRegistry {
    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final ToolSource extra;

    public ToolRegistry(List<Tool> enabled) {
        this(enabled, ToolSource.NONE);
    }

    public ToolRegistry(List<Tool> enabled, ToolSource extra) {
        for (Tool tool : enabled) {
            tools.put(tool.name(), tool);
        }
        this.extra = extra;
    }

    public Optional<Tool> find(String name) {
        Tool builtIn = tools.get(name);
        if (builtIn != null) {
            return Optional.of(builtIn);
        }
        return extra.tools().stream().filter(tool -> tool.name().equals(name)).findFirst();
    }

    public List<ToolDefinition> definitions() {
        List<ToolDefinition> all = new ArrayList<>();
        tools.values().forEach(tool -> all.add(tool.definition()));
        for (Tool tool : extra.tools()) {
            if (!tools.containsKey(tool.name())) {
                all.add(tool.definition());
            }
        }
        return all;
    }

    /** The built-in tools' definitions only (the system prompt describes these). */
    public List<ToolDefinition> builtInDefinitions() {
        return tools.values().stream().map(Tool::definition).toList();
    }

    /** See {@link ToolSource#awaitReady}. */
    public void awaitReady(CancellationToken cancel) {
        extra.awaitReady(cancel);
    }
}
