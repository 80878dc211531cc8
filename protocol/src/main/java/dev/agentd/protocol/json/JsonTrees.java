package dev.agentd.protocol.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON text to and from {@link JsonNode} trees with jackson-core alone: the same limits, the same
 * node kinds and the same output as {@link Json#mapper()}'s {@code readTree} and {@code writeValue}
 * (tests compare the two), without building an {@code ObjectMapper}. Building one costs tens of
 * milliseconds of a cold JVM, so the daemon's first exchange ({@code ready}, a command line, the
 * {@code get_state} answer) goes through here and does not wait for it (start-up, issue 18).
 */
public final class JsonTrees {
    /** Lines may legitimately carry large strings (file contents, base64 images); nesting is bounded. */
    static final StreamReadConstraints READ_LIMITS = StreamReadConstraints.builder()
            .maxStringLength(Integer.MAX_VALUE)
            .maxNestingDepth(1000)
            .build();
    /**
     * What the daemon writes is bounded by what it read, except {@code get_tree}, which nests two
     * levels per entry of a long session: writing is iterative, so this bounds only the output.
     */
    static final int WRITE_NESTING_LIMIT = 1_000_000;
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(READ_LIMITS)
            .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(WRITE_NESTING_LIMIT).build())
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();
    /** For a client reading the daemon it spawned: a deep {@code get_tree} answer is legitimate. */
    private static final JsonFactory DAEMON_OUTPUT = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(WRITE_NESTING_LIMIT).build())
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonTrees() {}

    /**
     * Parses one JSON value; empty input is a {@link MissingNode}, as for {@code readTree}. Anything
     * after the value is an error. Iterative: the nesting limit bounds the work, not the stack.
     */
    public static JsonNode read(byte[] bytes) throws IOException {
        return read(FACTORY, bytes);
    }

    /**
     * {@link #read(byte[])} for a line the daemon wrote, nested as deep as the daemon writes
     * ({@code get_tree} of a long session); iterative too, so depth costs heap, not stack.
     */
    public static JsonNode readDaemonOutput(byte[] bytes) throws IOException {
        return read(DAEMON_OUTPUT, bytes);
    }

    private static JsonNode read(JsonFactory factory, byte[] bytes) throws IOException {
        try (JsonParser parser = factory.createParser(bytes)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return MissingNode.getInstance();
            }
            JsonNode value = readValue(parser, first);
            JsonToken after = parser.nextToken();
            if (after != null) {
                throw new JsonParseException(parser, "Trailing token (of type " + after + ") found after the value");
            }
            return value;
        }
    }

    private static JsonNode readValue(JsonParser parser, JsonToken first) throws IOException {
        ArrayDeque<ContainerNode<?>> open = new ArrayDeque<>();
        for (JsonToken token = first; token != null; token = parser.nextToken()) {
            if (token == JsonToken.FIELD_NAME) {
                continue;
            }
            if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                ContainerNode<?> closed = open.pop();
                if (open.isEmpty()) {
                    return closed;
                }
                continue;
            }
            JsonNode node = scalarOrEmpty(parser, token);
            ContainerNode<?> parent = open.peek();
            if (parent instanceof ObjectNode object) {
                object.replace(parser.currentName(), node); // a repeated name: the last one wins
            } else if (parent != null) {
                ((ArrayNode) parent).add(node);
            }
            if (node instanceof ContainerNode<?> container) {
                open.push(container);
            } else if (parent == null) {
                return node;
            }
        }
        throw new JsonParseException(parser, "Unexpected end of input");
    }

    private static JsonNode scalarOrEmpty(JsonParser parser, JsonToken token) throws IOException {
        return switch (token) {
            case START_OBJECT -> NODES.objectNode();
            case START_ARRAY -> NODES.arrayNode();
            case VALUE_STRING -> NODES.textNode(parser.getText());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> NODES.numberNode(parser.getIntValue());
                case LONG -> NODES.numberNode(parser.getLongValue());
                default -> NODES.numberNode(parser.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDoubleValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> throw new JsonParseException(parser, "Unexpected token " + token);
        };
    }

    /** Writes {@code tree} to {@code out} as compact JSON (non-ASCII raw, as the mapper writes it). */
    public static void write(OutputStream out, JsonNode tree) throws IOException {
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(generator, tree);
        }
    }

    /** Iterative: one open container per level on the heap, never a stack frame per level. */
    private static void write(JsonGenerator gen, JsonNode root) throws IOException {
        ArrayDeque<Iterator<?>> open = new ArrayDeque<>();
        ArrayDeque<Boolean> isObject = new ArrayDeque<>();
        JsonNode next = root;
        while (true) {
            if (next != null) {
                switch (next.getNodeType()) {
                    case OBJECT -> {
                        gen.writeStartObject();
                        open.push(next.properties().iterator());
                        isObject.push(true);
                    }
                    case ARRAY -> {
                        gen.writeStartArray();
                        open.push(next.elements());
                        isObject.push(false);
                    }
                    default -> writeScalar(gen, next);
                }
                next = null;
            }
            Iterator<?> current = open.peek();
            if (current == null) {
                return;
            }
            if (!current.hasNext()) {
                open.pop();
                if (isObject.pop()) {
                    gen.writeEndObject();
                } else {
                    gen.writeEndArray();
                }
                continue;
            }
            Object item = current.next();
            if (item instanceof Map.Entry<?, ?> field) {
                gen.writeFieldName((String) field.getKey());
                next = (JsonNode) field.getValue();
            } else {
                next = (JsonNode) item;
            }
        }
    }

    private static void writeScalar(JsonGenerator gen, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case STRING -> gen.writeString(node.textValue());
            case NUMBER -> writeNumber(gen, node);
            case BOOLEAN -> gen.writeBoolean(node.booleanValue());
            case NULL -> gen.writeNull();
            case BINARY -> gen.writeBinary(node.binaryValue());
            default -> Json.mapper().writeTree(gen, node); // POJO and missing nodes: rare, the mapper knows them
        }
    }

    private static void writeNumber(JsonGenerator gen, JsonNode number) throws IOException {
        switch (number.numberType()) {
            case INT -> gen.writeNumber(number.intValue());
            case LONG -> gen.writeNumber(number.longValue());
            case BIG_INTEGER -> gen.writeNumber(number.bigIntegerValue());
            case FLOAT -> gen.writeNumber(number.floatValue());
            case DOUBLE -> gen.writeNumber(number.doubleValue());
            default -> gen.writeNumber(number.decimalValue());
        }
    }
}
