package dev.agentd.protocol.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** jackson-core trees read and write exactly what the mapper's readTree and writeValue do. */
class JsonTreesTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"type\":\"get_state\",\"id\":\"1\"}",
        "{\"type\":\"get_state\",\"id\":5}", "{\"id\":-5.0}", "{\"id\":null}", "{\"id\":[1,{\"a\":true}]}",
        "{\"n\":2147483647,\"m\":2147483648,\"b\":92233720368547758070,\"f\":1.5e300,\"g\":-0.0,\"h\":1e400}",
        "{\"a\":1,\"a\":2}", "{\"s\":\"\\u2028 \u00e9 \\ud83d\\ude00 \\\"q\\\" \\n\"}", "[]", "{}", "\"text\"", "42", "true",
        "null", "  {\"x\" : { \"y\" : [ [ [ ] ] ] } }  ", "{\"type\":\"prompt\",\"message\":\"hi\",\"images\":[]}"})
    void readsTheSameTreesAsTheMapper(String line) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        JsonNode expected = Json.mapper().readTree(bytes);
        JsonNode actual = JsonTrees.read(bytes);
        assertEquals(expected, actual, line);
        assertSameKinds(expected, actual);
    }

    /** JsonNode equality compares values; the node classes must match too (5 stays an int node). */
    private static void assertSameKinds(JsonNode expected, JsonNode actual) {
        assertEquals(expected.getClass(), actual.getClass(), expected.toString());
        if (expected.isContainerNode()) {
            assertEquals(expected.size(), actual.size());
            for (int i = 0; expected.isArray() && i < expected.size(); i++) {
                assertSameKinds(expected.get(i), actual.get(i));
            }
            expected.fieldNames().forEachRemaining(name -> assertSameKinds(expected.get(name), actual.get(name)));
        }
    }

    @Test
    void emptyInputIsAMissingNodeAsForReadTree() throws IOException {
        assertInstanceOf(MissingNode.class, JsonTrees.read(new byte[0]));
        assertInstanceOf(MissingNode.class, JsonTrees.read("  ".getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":", "{\"a\":1,}", "{'a':1}", "[1,2", "{\"a\" 1}", "nul", "{\"type\":\"get_state\"} trailing",
        "\u0000", "{\"a\":\"\\x\"}", "{\"a\":01}"})
    void refusesWhatTheMapperRefusesWithTheSameMessage(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        JsonProcessingException expected = assertThrows(JsonProcessingException.class, () -> Json.mapper().readTree(bytes));
        JsonProcessingException actual = assertThrows(JsonProcessingException.class, () -> JsonTrees.read(bytes));
        assertEquals(expected.getOriginalMessage(), actual.getOriginalMessage(), line);
    }

    @Test
    void aSecondValueOnTheLineIsRefused() {
        for (String line : List.of("{} {}", "{\"id\":\"1\"}[1]", "1 2")) {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            assertThrows(JsonProcessingException.class, () -> Json.mapper().readTree(bytes), line);
            JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> JsonTrees.read(bytes), line);
            assertTrue(e.getOriginalMessage().startsWith("Trailing token"), e.getOriginalMessage());
        }
    }

    @Test
    void nestingIsBoundedAsForTheMapperWithoutDeepRecursion() throws IOException {
        assertEquals(Json.mapper().readTree(nested(1000)), JsonTrees.read(nested(1000)));
        assertThrows(JsonProcessingException.class, () -> Json.mapper().readTree(nested(1001)));
        assertThrows(JsonProcessingException.class, () -> JsonTrees.read(nested(1001)));
    }

    @Test
    void theDaemonWritesAndItsClientReadsTreesFarDeeperThanCommandsMayNestWithoutRecursion() throws Exception {
        byte[] deep = nested(200_000); // on a small thread stack: neither side may recurse per level
        byte[][] written = new byte[1][];
        Thread small = new Thread(null, () -> {
            try {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                JsonTrees.write(out, JsonTrees.readDaemonOutput(deep));
                written[0] = out.toByteArray();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "small-stack", 256 * 1024);
        small.start();
        small.join();
        assertArrayEquals(deep, written[0]);
        assertThrows(JsonProcessingException.class, () -> JsonTrees.read(deep), "commands stay bounded");
    }

    private static byte[] nested(int depth) {
        return ("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void longStringsAreRead() throws IOException {
        String big = "x".repeat(30_000_000); // above jackson's default 20 M limit, as file contents can be
        byte[] bytes = ("{\"message\":\"" + big + "\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals(big.length(), JsonTrees.read(bytes).path("message").textValue().length());
    }

    @Test
    void writesWhatTheMapperWrites() throws IOException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode tree = nodes.objectNode();
        tree.put("id", "1").put("int", 5).put("long", 1L << 40).put("double", 0.1).put("whole", 3.0)
                .put("float", 1.5f).put("short", (short) 7).put("bool", false).put("text", "\u2028é😀\"\\\n\u0001");
        tree.put("big", new BigInteger("92233720368547758070")).put("decimal", new BigDecimal("1.50"));
        tree.putNull("null");
        tree.put("binary", new byte[] {1, 2, 3, (byte) 250});
        tree.putArray("array").add(1).add("two").addObject().putArray("empty");
        tree.putObject("object");
        tree.putPOJO("pojo", List.of("a", 1));
        // As the daemon writes: to bytes (a String target would keep surrogate pairs unescaped).
        assertEquals(new String(Json.mapper().writeValueAsBytes(tree), StandardCharsets.UTF_8), written(tree));
        assertEquals(new String(Json.mapper().writeValueAsBytes(nodes.textNode("x")), StandardCharsets.UTF_8),
                written(nodes.textNode("x")));
    }

    private static String written(JsonNode tree) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonTrees.write(out, tree);
        return out.toString(StandardCharsets.UTF_8);
    }
}
