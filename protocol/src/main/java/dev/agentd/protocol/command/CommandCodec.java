package dev.agentd.protocol.command;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.JsonKinds;
import dev.agentd.protocol.json.WireTypes;
import dev.agentd.protocol.text.Lines;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns a parsed JSON object into a {@link Command}, or into an error text that names the problem
 * (SPEC §3.3): an unknown {@code type}, a missing required field, a field of the wrong type.
 * Encoding is the reverse, for clients.
 */
public final class CommandCodec {
    private static final Map<String, Class<? extends Command>> TYPES = WireTypes.registry(Command.class);
    private static final ClassValue<List<RecordComponent>> COMPONENTS = new ClassValue<>() {
        @Override
        protected List<RecordComponent> computeValue(Class<?> type) {
            return List.of(type.getRecordComponents());
        }
    };

    private CommandCodec() {}

    /** The names of every command this version knows. */
    public static Collection<String> commandNames() {
        return TYPES.keySet();
    }

    /** The record class of a command name, or null. */
    public static Class<? extends Command> commandClass(String name) {
        return TYPES.get(name);
    }

    /** Outcome of decoding one command. */
    public sealed interface Result {
        /** The id to echo, when the request carried a usable one. */
        String id();
    }

    public record Decoded(String id, Command command) implements Result {}

    /** {@code command} is the request's type when it had one (else null); {@code error} names the problem. */
    public record Rejected(String id, String command, String error) implements Result {}

    /** Decodes a whole command object: {@code {"type", "id"?, ...fields}}. */
    public static Result decode(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            return new Rejected(null, "parse", "Failed to parse command: expected a JSON object, got "
                    + JsonKinds.describe(node));
        }
        JsonNode idNode = object.get("id");
        String id = idText(idNode);
        JsonNode typeNode = object.get("type");
        String type = typeNode != null && typeNode.isTextual() ? typeNode.textValue() : null;
        if (idNode != null && !idNode.isNull() && !idNode.isTextual() && !idNode.isNumber()) {
            return new Rejected(null, type,
                    "Invalid field 'id': expected a string, a number or null, got " + JsonKinds.describe(idNode));
        }
        if (typeNode == null || typeNode.isNull()) {
            return new Rejected(id, null, "Missing required field 'type'");
        }
        if (type == null) {
            return new Rejected(id, null,
                    "Invalid field 'type': expected a string, got " + JsonKinds.describe(typeNode));
        }
        return decode(id, type, object);
    }

    /**
     * The text form of a usable id (a string, or a number as written); null when absent, null or
     * of another type. The rpc layer echoes the id node itself, so {@code 5} stays a number.
     */
    public static String idText(JsonNode id) {
        if (id == null) {
            return null;
        }
        if (id.isTextual()) {
            return id.textValue();
        }
        return id.isNumber() ? id.toString() : null;
    }

    /** Decodes the fields of a command whose name is already known (the JSON-RPC {@code params}). */
    public static Result decode(String id, String type, ObjectNode fields) {
        Class<? extends Command> cls = TYPES.get(type);
        if (cls == null) {
            return new Rejected(id, type, "Unknown command: " + type);
        }
        Command command;
        try {
            command = COMPONENTS.get(cls).isEmpty() ? withoutFields(cls) : Json.mapper().treeToValue(fields, cls);
        } catch (JsonMappingException e) {
            return new Rejected(id, type, describe(e));
        } catch (Exception e) {
            return new Rejected(id, type, "Invalid command: " + e.getMessage());
        }
        String invalid = checkFields(command);
        return invalid == null ? new Decoded(id, command) : new Rejected(id, type, invalid);
    }

    /**
     * A command without fields ({@code get_state}, {@code abort}, …): whatever else the object holds
     * is ignored, as the mapper ignores unknown fields, so it is built directly — a daemon's first
     * {@code get_state} then needs no {@code ObjectMapper} (start-up, issue 18).
     */
    private static Command withoutFields(Class<? extends Command> cls) throws ReflectiveOperationException {
        return cls.getDeclaredConstructor().newInstance();
    }

    /** Required fields present; no list holds a null element. Returns the problem, or null. */
    private static String checkFields(Command command) {
        for (RecordComponent component : COMPONENTS.get(command.getClass())) {
            Object value;
            try {
                value = component.getAccessor().invoke(command);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (value == null && component.isAnnotationPresent(Required.class)) {
                return "Missing required field '" + component.getName() + "'";
            }
            if (value instanceof List<?> list) {
                for (int i = 0; i < list.size(); i++) {
                    if (list.get(i) == null) {
                        return "Invalid field '" + component.getName() + "[" + i + "]': must not be null";
                    }
                }
            }
        }
        return null;
    }

    /** The JSON object for a command, with its {@code id} when given. */
    public static ObjectNode encode(String id, Command command) {
        ObjectMapper mapper = Json.mapper();
        ObjectNode out = mapper.createObjectNode();
        if (id != null) {
            out.put("id", id);
        }
        out.setAll((ObjectNode) mapper.valueToTree(command));
        return out;
    }

    private static String describe(JsonMappingException e) {
        List<JsonMappingException.Reference> path = e.getPath();
        String field = path.isEmpty() ? null : path.get(0).getFieldName();
        if (field == null) {
            return "Invalid command: " + Lines.firstLine(e.getOriginalMessage()).orElse("invalid value");
        }
        String pathText = path.stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (original.contains("out of range")) {
            return "Invalid field '" + pathText + "': number out of range";
        }
        String expected = expected(e);
        if (e instanceof InvalidFormatException invalid && invalid.getTargetType() != null
                && invalid.getTargetType().isEnum()) {
            return "Invalid field '" + pathText + "': " + describeValue(invalid.getValue()) + " is not one of "
                    + enumNames(invalid.getTargetType());
        }
        return "Invalid field '" + pathText + "': expected " + expected;
    }

    /** The wire names of an enum's constants. */
    private static String enumNames(Class<?> type) {
        return Arrays.stream(type.getEnumConstants())
                .map(constant -> Json.mapper().valueToTree(constant).asText())
                .collect(Collectors.joining(", "));
    }

    private static String expected(JsonMappingException e) {
        Class<?> target = e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException mismatch
                ? mismatch.getTargetType() : null;
        if (target == null) {
            return Lines.firstLine(e.getOriginalMessage()).orElse("invalid value");
        }
        if (target == String.class) {
            return "a string";
        }
        if (target == Boolean.class || target == boolean.class) {
            return "a boolean";
        }
        if (target == Integer.class || target == int.class || target == Long.class || target == long.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(target) || target.isPrimitive()) {
            return "a number";
        }
        if (Collection.class.isAssignableFrom(target) || target.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String describeValue(Object value) {
        return value instanceof String text ? "'" + text + "'" : String.valueOf(value);
    }
}
