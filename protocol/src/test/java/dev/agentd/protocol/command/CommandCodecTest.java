package dev.agentd.protocol.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.WireSamples;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.StreamingBehavior;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.model.UpdateMode;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CommandCodecTest {
    private static final ObjectMapper MAPPER = Json.mapper();

    private static CommandCodec.Result decode(String json) throws Exception {
        return CommandCodec.decode(MAPPER.readTree(json));
    }

    private static CommandCodec.Decoded decoded(String json) throws Exception {
        CommandCodec.Result result = decode(json);
        return assertInstanceOf(CommandCodec.Decoded.class, result, () -> json + " -> " + result);
    }

    private static CommandCodec.Rejected rejected(String json) throws Exception {
        CommandCodec.Result result = decode(json);
        return assertInstanceOf(CommandCodec.Rejected.class, result, () -> json + " -> " + result);
    }

    // --- success -------------------------------------------------------------------------------

    @Test
    void decodesPromptWithId() throws Exception {
        CommandCodec.Decoded result = decoded("{\"type\":\"prompt\",\"message\":\"hi\",\"id\":\"1\"}");
        assertEquals("1", result.id());
        assertEquals(new Command.Prompt("hi", null, null), result.command());
    }

    @Test
    void decodesWithoutId() throws Exception {
        CommandCodec.Decoded result = decoded("{\"type\":\"get_state\"}");
        assertNull(result.id());
        assertEquals(new Command.GetState(), result.command());
        assertNull(decoded("{\"type\":\"abort\",\"id\":null}").id(), "a null id is no id");
    }

    @Test
    void everyThinkingLevelRoundTripsByItsWireNameInOrder() throws Exception {
        assertEquals(List.of("off", "minimal", "low", "medium", "high", "xhigh", "max"),
                java.util.Arrays.stream(ThinkingLevel.values()).map(ThinkingLevel::wire).toList(),
                "clamping and cycling rely on this order");
        for (ThinkingLevel level : ThinkingLevel.values()) {
            String json = "{\"type\":\"set_thinking_level\",\"level\":\"" + level.wire() + "\"}";
            assertEquals(new Command.SetThinkingLevel(level), decoded(json).command());
            assertEquals(json, CommandCodec.encode(null, new Command.SetThinkingLevel(level)).toString());
        }
    }

    @Test
    void decodesFieldsOfEveryShape() throws Exception {
        assertEquals(new Command.Prompt("look", List.of(new ContentBlock.Image("QUJD", "image/png")),
                        StreamingBehavior.FOLLOW_UP),
                decoded("{\"type\":\"prompt\",\"message\":\"look\",\"images\":[{\"type\":\"image\",\"data\":\"QUJD\","
                        + "\"mimeType\":\"image/png\"}],\"streamingBehavior\":\"followUp\"}").command());
        assertEquals(new Command.SetModel("anthropic", "claude"),
                decoded("{\"type\":\"set_model\",\"provider\":\"anthropic\",\"modelId\":\"claude\"}").command());
        assertEquals(new Command.SetThinkingLevel(ThinkingLevel.XHIGH),
                decoded("{\"type\":\"set_thinking_level\",\"level\":\"xhigh\"}").command());
        assertEquals(new Command.SetSteeringMode(QueueMode.ONE_AT_A_TIME),
                decoded("{\"type\":\"set_steering_mode\",\"mode\":\"one-at-a-time\"}").command());
        assertEquals(new Command.SetAutoRetry(false),
                decoded("{\"type\":\"set_auto_retry\",\"enabled\":false}").command());
        assertEquals(new Command.SetRetrySettings(5, 2000L, null),
                decoded("{\"type\":\"set_retry_settings\",\"maxRetries\":5,\"baseDelayMs\":2000}").command());
        assertEquals(new Command.SetEventOptions(UpdateMode.DELTA),
                decoded("{\"type\":\"set_event_options\",\"updates\":\"delta\"}").command());
        assertEquals(new Command.FauxEnqueue(null, List.of(FauxStep.text("hello"),
                        FauxStep.error("overloaded", 529).withRetryAfterMs(1500),
                        FauxStep.toolCall("bash", JsonNodeFactory.instance.objectNode().put("command", "ls")))),
                decoded("{\"type\":\"faux_enqueue\",\"steps\":[{\"text\":\"hello\"},"
                        + "{\"error\":\"overloaded\",\"status\":529,\"retryAfterMs\":1500},"
                        + "{\"toolCall\":{\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}}]}").command());
        assertEquals(new Command.SetFallbackChain("default", List.of("a/b", "c/d")),
                decoded("{\"type\":\"set_fallback_chain\",\"key\":\"default\",\"entries\":[\"a/b\",\"c/d\"]}").command());
    }

    @Test
    void unknownExtraFieldsAreIgnored() throws Exception {
        CommandCodec.Decoded result = decoded("{\"id\":\"9\",\"type\":\"bash\",\"command\":\"ls\",\"extra\":{\"x\":[1]},"
                + "\"timeout\":5,\"future\":null}");
        assertEquals("9", result.id());
        assertEquals(new Command.Bash("ls"), result.command());
    }

    @Test
    void explicitNullOptionalIsAbsent() throws Exception {
        assertEquals(new Command.NewSession(null),
                decoded("{\"type\":\"new_session\",\"parentSession\":null}").command());
    }

    // --- type and id -----------------------------------------------------------------------------

    @Test
    void unknownTypeIsRejectedWithTheId() throws Exception {
        CommandCodec.Rejected result = rejected("{\"type\":\"export_pdf\",\"id\":\"42\"}");
        assertEquals("42", result.id());
        assertEquals("export_pdf", result.command());
        assertEquals("Unknown command: export_pdf", result.error());
    }

    @Test
    void missingTypeIsRejected() throws Exception {
        CommandCodec.Rejected result = rejected("{\"id\":\"3\",\"message\":\"hi\"}");
        assertEquals("3", result.id());
        assertNull(result.command());
        assertEquals("Missing required field 'type'", result.error());
        assertEquals("Missing required field 'type'", rejected("{\"type\":null}").error());
    }

    @Test
    void nonStringTypeIsRejected() throws Exception {
        CommandCodec.Rejected result = rejected("{\"type\":5,\"id\":\"4\"}");
        assertEquals("4", result.id());
        assertNull(result.command());
        assertTrue(result.error().contains("'type'"), result.error());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1,2]", "[]", "5", "\"prompt\"", "true", "null"})
    void nonObjectInputIsAParseError(String json) throws Exception {
        CommandCodec.Rejected result = rejected(json);
        assertNull(result.id());
        assertEquals("parse", result.command());
        assertTrue(result.error().startsWith("Failed to parse command"), result.error());
    }

    @Test
    void nullNodeIsAParseError() {
        CommandCodec.Rejected result = assertInstanceOf(CommandCodec.Rejected.class, CommandCodec.decode(null));
        assertEquals("parse", result.command());
        assertTrue(result.error().startsWith("Failed to parse command"), result.error());
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "{\"a\":1}", "[\"1\"]"})
    void anIdThatIsNeitherStringNumberNorNullIsRejectedNamingId(String id) throws Exception {
        CommandCodec.Rejected result = rejected("{\"type\":\"get_state\",\"id\":" + id + "}");
        assertNull(result.id(), "no text form: the rpc layer echoes the node itself");
        assertEquals("get_state", result.command());
        assertTrue(result.error().contains("'id'"), result.error());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"5|5", "1.5|1.5", "-7|-7", "null|", "\"x\"|x"})
    void stringNumberAndNullIdsAreAccepted(String id, String text) throws Exception {
        CommandCodec.Result result = CommandCodec.decode(Json.mapper().readTree(
                "{\"type\":\"get_state\",\"id\":" + id + "}"));
        assertInstanceOf(CommandCodec.Decoded.class, result);
        assertEquals(text, result.id());
    }

    // --- required fields ---------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"type\":\"prompt\",\"id\":\"1\"}                              | message",
        "{\"type\":\"prompt\",\"id\":\"1\",\"message\":null}             | message",
        "{\"type\":\"steer\",\"id\":\"1\"}                               | message",
        "{\"type\":\"set_model\",\"id\":\"1\",\"provider\":\"p\"}        | modelId",
        "{\"type\":\"set_model\",\"id\":\"1\",\"modelId\":\"m\"}         | provider",
        "{\"type\":\"set_thinking_level\",\"id\":\"1\"}                  | level",
        "{\"type\":\"set_auto_retry\",\"id\":\"1\"}                      | enabled",
        "{\"type\":\"bash\",\"id\":\"1\"}                                | command",
        "{\"type\":\"faux_enqueue\",\"id\":\"1\",\"model\":\"m\"}        | steps",
        "{\"type\":\"set_fallback_chain\",\"id\":\"1\",\"key\":\"k\"}    | entries",
    })
    void missingRequiredFieldIsNamed(String json, String field) throws Exception {
        CommandCodec.Rejected result = rejected(json);
        assertEquals("1", result.id());
        assertEquals(MAPPER.readTree(json).get("type").textValue(), result.command());
        assertEquals("Missing required field '" + field + "'", result.error());
    }

    @TestFactory
    Stream<DynamicTest> everyRequiredFieldIsEnforced() {
        WireSamples samples = new WireSamples();
        return WireSamples.wireRecords(Command.class).stream().flatMap(cls ->
                Arrays.stream(cls.getRecordComponents())
                        .filter(component -> component.isAnnotationPresent(Required.class))
                        .map(component -> DynamicTest.dynamicTest(cls.getSimpleName() + "." + component.getName(), () -> {
                            ObjectNode json = CommandCodec.encode("r", (Command) samples.full(cls));
                            json.remove(component.getName());
                            CommandCodec.Rejected result = assertInstanceOf(CommandCodec.Rejected.class,
                                    CommandCodec.decode(json));
                            assertEquals("Missing required field '" + component.getName() + "'", result.error());
                            assertEquals("r", result.id());
                        })));
    }

    // --- wrong types -------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"type\":\"prompt\",\"message\":5}                          | message",
        "{\"type\":\"prompt\",\"message\":true}                       | message",
        "{\"type\":\"prompt\",\"message\":{\"text\":\"hi\"}}          | message",
        "{\"type\":\"prompt\",\"message\":[\"hi\"]}                   | message",
        "{\"type\":\"set_auto_retry\",\"enabled\":\"true\"}           | enabled",
        "{\"type\":\"set_auto_retry\",\"enabled\":1}                  | enabled",
        "{\"type\":\"set_auto_compaction\",\"enabled\":0}             | enabled",
        "{\"type\":\"set_retry_settings\",\"maxRetries\":1.5}         | maxRetries",
        "{\"type\":\"set_retry_settings\",\"maxRetries\":\"3\"}       | maxRetries",
        "{\"type\":\"set_retry_settings\",\"baseDelayMs\":\"100\"}    | baseDelayMs",
        "{\"type\":\"set_retry_settings\",\"maxRetryDelayMs\":2.5}    | maxRetryDelayMs",
        "{\"type\":\"faux_enqueue\",\"steps\":\"x\"}                  | steps",
        "{\"type\":\"faux_enqueue\",\"steps\":{\"text\":\"x\"}}       | steps",
        "{\"type\":\"faux_enqueue\",\"steps\":[{\"status\":\"500\"}]} | steps[0].status",
        "{\"type\":\"faux_enqueue\",\"steps\":[{\"text\":\"a\"},{\"text\":7}]} | steps[1].text",
        "{\"type\":\"set_model\",\"provider\":1,\"modelId\":\"m\"}   | provider",
        "{\"type\":\"set_fallback_chain\",\"key\":\"k\",\"entries\":[1]} | entries[0]",
        "{\"type\":\"prompt\",\"message\":\"m\",\"images\":[{\"data\":5}]} | images[0].data",
    })
    void wrongTypeIsRejectedNamingTheField(String json, String field) throws Exception {
        String withId = json.replaceFirst("\\{", "{\"id\":\"w\",");
        CommandCodec.Rejected result = rejected(withId);
        assertEquals("w", result.id());
        assertEquals(MAPPER.readTree(json).get("type").textValue(), result.command());
        assertTrue(result.error().startsWith("Invalid field '" + field + "'"), result.error());
    }

    @Test
    void wrongTypeErrorsSayWhatWasExpected() throws Exception {
        assertEquals("Invalid field 'message': expected a string",
                rejected("{\"type\":\"prompt\",\"message\":5}").error());
        assertEquals("Invalid field 'enabled': expected a boolean",
                rejected("{\"type\":\"set_auto_retry\",\"enabled\":\"true\"}").error());
        assertEquals("Invalid field 'maxRetries': expected an integer",
                rejected("{\"type\":\"set_retry_settings\",\"maxRetries\":1.5}").error());
        assertEquals("Invalid field 'steps': expected an array",
                rejected("{\"type\":\"faux_enqueue\",\"steps\":\"x\"}").error());
    }

    @Test
    void badEnumValueListsTheAllowedValues() throws Exception {
        CommandCodec.Rejected level = rejected("{\"type\":\"set_thinking_level\",\"level\":\"bogus\",\"id\":\"e\"}");
        assertEquals("e", level.id());
        assertEquals("set_thinking_level", level.command());
        assertEquals("Invalid field 'level': 'bogus' is not one of off, minimal, low, medium, high, xhigh, max",
                level.error());

        assertEquals("Invalid field 'mode': 'ALL' is not one of all, one-at-a-time",
                rejected("{\"type\":\"set_follow_up_mode\",\"mode\":\"ALL\"}").error(),
                "enums are matched by wire name, not constant name");
        assertEquals("Invalid field 'streamingBehavior': 'later' is not one of steer, followUp",
                rejected("{\"type\":\"prompt\",\"message\":\"m\",\"streamingBehavior\":\"later\"}").error());
        assertEquals("Invalid field 'updates': 'some' is not one of full, delta",
                rejected("{\"type\":\"set_event_options\",\"updates\":\"some\"}").error());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "\"1\"", "0", "true", "1.5", "[\"off\"]"})
    void enumGivenANonNameIsRejectedNamingTheField(String level) throws Exception {
        // Not decoded by ordinal: {"level":1} must not silently mean "minimal".
        CommandCodec.Rejected result = rejected("{\"type\":\"set_thinking_level\",\"level\":" + level + "}");
        assertTrue(result.error().startsWith("Invalid field 'level'"), result.error());
    }

    // --- decode(id, type, fields) ------------------------------------------------------------------

    @Test
    void nullListElementsAreRejectedNamingTheIndex() throws Exception {
        assertEquals("Invalid field 'images[1]': must not be null",
                rejected("{\"type\":\"prompt\",\"message\":\"m\",\"images\":[{\"data\":\"x\",\"mimeType\":\"image/png\"},null]}")
                        .error());
        assertEquals("Invalid field 'steps[0]': must not be null",
                rejected("{\"type\":\"faux_enqueue\",\"steps\":[null]}").error());
    }

    @Test
    void outOfRangeNumbersSaySo() throws Exception {
        assertEquals("Invalid field 'maxRetries': number out of range",
                rejected("{\"type\":\"set_retry_settings\",\"maxRetries\":99999999999}").error());
    }

    @Test
    void decodeByNameForJsonRpcParams() {
        ObjectNode params = JsonNodeFactory.instance.objectNode().put("enabled", false);
        assertEquals(new CommandCodec.Decoded("5", new Command.SetAutoRetry(false)),
                CommandCodec.decode("5", "set_auto_retry", params));
        assertEquals(new CommandCodec.Rejected("5", "nope", "Unknown command: nope"),
                CommandCodec.decode("5", "nope", params));
        assertEquals(new CommandCodec.Rejected("6", "bash", "Missing required field 'command'"),
                CommandCodec.decode("6", "bash", JsonNodeFactory.instance.objectNode()));
    }

    // --- encode ------------------------------------------------------------------------------------

    @Test
    void encodePutsIdFirstAndOmitsNulls() {
        ObjectNode json = CommandCodec.encode("1", new Command.Prompt("hi", null, null));
        assertEquals("{\"id\":\"1\",\"type\":\"prompt\",\"message\":\"hi\"}", json.toString());
        assertEquals("{\"type\":\"abort\"}", CommandCodec.encode(null, new Command.Abort()).toString());
    }

    @TestFactory
    Stream<DynamicTest> everyCommandEncodesAndDecodes() {
        return WireSamples.wireRecords(Command.class).stream().flatMap(cls -> Stream.of(
                DynamicTest.dynamicTest(cls.getSimpleName() + " full", () -> encodeDecode(cls, true)),
                DynamicTest.dynamicTest(cls.getSimpleName() + " sparse", () -> encodeDecode(cls, false))));
    }

    private static void encodeDecode(Class<?> cls, boolean full) throws Exception {
        WireSamples samples = new WireSamples();
        Command command = (Command) (full ? samples.full(cls) : samples.sparse(cls));
        boolean missingRequired = false;
        for (RecordComponent component : cls.getRecordComponents()) {
            missingRequired |= component.isAnnotationPresent(Required.class)
                    && component.getAccessor().invoke(command) == null;
        }
        String name = cls.getAnnotation(WireType.class).value();
        for (String id : new String[] {"id-" + name, null}) {
            ObjectNode json = CommandCodec.encode(id, command);
            assertEquals(name, json.get("type").textValue());
            // Through text, as on the wire.
            JsonNode wire = MAPPER.readTree(MAPPER.writeValueAsString(json));
            CommandCodec.Result result = CommandCodec.decode(wire);
            if (missingRequired) {
                CommandCodec.Rejected rejected = assertInstanceOf(CommandCodec.Rejected.class, result);
                assertTrue(rejected.error().startsWith("Missing required field"), rejected.error());
                assertEquals(id, rejected.id());
            } else {
                assertEquals(new CommandCodec.Decoded(id, command), result, wire::toString);
            }
            assertEquals(command, MAPPER.readValue(MAPPER.writeValueAsString(command), Command.class));
        }
    }
}
