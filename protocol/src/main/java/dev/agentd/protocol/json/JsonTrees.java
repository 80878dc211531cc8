package dev.agentd.protocol.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
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
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(READ_LIMITS)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonTrees() {}

    /**
     * Parses one JSON value; empty input is a {@link MissingNode}, as for {@code readTree}. Anything
     * after the value is an error. Iterative: the nesting limit bounds the work, not the stack.
     */
    public static JsonNode read(byte[] bytes) throws IOException {
        try (JsonParser parser = FACTORY.createParser(bytes)) {
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

    private static void write(JsonGenerator gen, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                gen.writeStartObject();
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    gen.writeFieldName(field.getKey());
                    write(gen, field.getValue());
                }
                gen.writeEndObject();
            }
            case ARRAY -> {
                gen.writeStartArray();
                for (JsonNode element : node) {
                    write(gen, element);
                }
                gen.writeEndArray();
            }
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
