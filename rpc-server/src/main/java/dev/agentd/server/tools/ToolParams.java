package dev.agentd.server.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool's parameters: produces the JSON schema sent to providers and validates a call's arguments
 * against it. Validation is deliberately lenient about scalar spelling (models send {@code "10"}
 * for an integer or {@code 3} for a string) but strict about presence and about objects/arrays
 * where a scalar is expected; unknown properties are ignored.
 */
public final class ToolParams {

    /** The JSON-schema types a parameter can have. */
    public enum Type {
        STRING("string"), INTEGER("integer"), NUMBER("number"), BOOLEAN("boolean");

        private final String json;

        Type(String json) {
            this.json = json;
        }
    }

    private record Param(String name, Type type, String description, boolean required) {}

    private final List<Param> params;

    private ToolParams(List<Param> params) {
        this.params = List.copyOf(params);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The JSON schema: {@code {type:"object", properties:{…}, required:[…]}}. */
    public ObjectNode schema() {
        ObjectNode schema = JsonNodeFactory.instance.objectNode(); // no mapper: start-up builds it in parallel
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (Param param : params) {
            ObjectNode property = properties.putObject(param.name());
            property.put("type", param.type().json);
            property.put("description", param.description());
            if (param.required()) {
                required.add(param.name());
            }
        }
        return schema;
    }

    /**
     * Checks {@code arguments} and returns them converted to Java values.
     *
     * @throws ToolException "Invalid arguments for &lt;tool&gt;: …" naming every problem
     */
    public ToolArgs validate(String toolName, JsonNode arguments) {
        if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
            arguments = Json.mapper().createObjectNode();
        }
        if (!arguments.isObject()) {
            throw invalid(toolName, List.of("arguments must be a JSON object"));
        }
        Map<String, Object> values = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Param param : params) {
            JsonNode node = arguments.get(param.name());
            if (node == null || node.isNull()) {
                if (param.required()) {
                    problems.add("'" + param.name() + "' is required");
                }
                continue;
            }
            Object value = convert(param.type(), node);
            if (value == null) {
                problems.add("'" + param.name() + "' must be " + article(param.type()));
            } else {
                values.put(param.name(), value);
            }
        }
        if (!problems.isEmpty()) {
            throw invalid(toolName, problems);
        }
        return new ToolArgs(toolName, values);
    }

    private static ToolException invalid(String toolName, List<String> problems) {
        return new ToolException("Invalid arguments for " + toolName + ": " + String.join("; ", problems));
    }

    private static String article(Type type) {
        return (type == Type.INTEGER ? "an " : "a ") + type.json;
    }

    /** The value as the Java type for {@code type}, or null when it cannot be read as one. */
    private static Object convert(Type type, JsonNode node) {
        switch (type) {
            case STRING:
                return node.isValueNode() ? node.asText() : null;
            case BOOLEAN:
                if (node.isBoolean()) {
                    return node.booleanValue();
                }
                if (node.isTextual() && ("true".equals(node.textValue()) || "false".equals(node.textValue()))) {
                    return Boolean.parseBoolean(node.textValue());
                }
                return null;
            case INTEGER:
                Double number = number(node);
                if (number == null || number != Math.rint(number) || Math.abs(number) > Integer.MAX_VALUE) {
                    return null;
                }
                return number.intValue();
            case NUMBER:
                return number(node);
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    private static Double number(JsonNode node) {
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isTextual()) {
            try {
                double parsed = Double.parseDouble(node.textValue().trim());
                return Double.isFinite(parsed) ? parsed : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** Declares parameters in the order they are shown to the model. */
    public static final class Builder {
        private final List<Param> params = new ArrayList<>();

        public Builder required(String name, Type type, String description) {
            params.add(new Param(name, type, description, true));
            return this;
        }

        public Builder optional(String name, Type type, String description) {
            params.add(new Param(name, type, description, false));
            return this;
        }

        public ToolParams build() {
            return new ToolParams(params);
        }
    }
}
