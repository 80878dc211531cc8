package dev.agentd.server.tools;

import java.util.Map;

/** Validated arguments of one call (see {@link ToolParams#validate}); absent optionals are null. */
public final class ToolArgs {
    private final String toolName;
    private final Map<String, Object> values;

    ToolArgs(String toolName, Map<String, Object> values) {
        this.toolName = toolName;
        this.values = Map.copyOf(values);
    }

    public String string(String name) {
        return (String) values.get(name);
    }

    public String string(String name, String fallback) {
        String value = string(name);
        return value == null ? fallback : value;
    }

    public Integer integer(String name) {
        return (Integer) values.get(name);
    }

    /** An optional integer that must be at least {@code min} when given. */
    public Integer integerAtLeast(String name, int min) {
        Integer value = integer(name);
        if (value != null && value < min) {
            throw new ToolException("Invalid arguments for " + toolName + ": '" + name + "' must be at least " + min);
        }
        return value;
    }

    public Double number(String name) {
        return (Double) values.get(name);
    }

    public boolean bool(String name, boolean fallback) {
        Boolean value = (Boolean) values.get(name);
        return value == null ? fallback : value;
    }
}
