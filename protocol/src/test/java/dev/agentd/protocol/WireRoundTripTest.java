package dev.agentd.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.command.Command;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.json.WireType;
import dev.agentd.protocol.json.WireTypes;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.Results;
import dev.agentd.protocol.response.SessionState;
import dev.agentd.protocol.response.SessionStats;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class WireRoundTripTest {
    private static final ObjectMapper MAPPER = Json.mapper();

    /** The four sealed wire families and their discriminator fields. */
    private static final Map<Class<?>, String> FAMILIES = Map.of(
            Command.class, "type",
            AgentEvent.class, "type",
            AgentMessage.class, "role",
            ContentBlock.class, "type");

    // --- every record of every family ---------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> everyWireRecordRoundTrips() {
        List<DynamicTest> tests = new ArrayList<>();
        FAMILIES.forEach((family, discriminator) -> {
            Class<?>[] permitted = family.getPermittedSubclasses();
            assertTrue(permitted.length > 0, family + " is sealed");
            for (Class<?> record : permitted) {
                String name = family.getSimpleName() + "." + record.getSimpleName();
                tests.add(DynamicTest.dynamicTest(name + " full", () -> roundTrip(family, discriminator, record, true)));
                tests.add(DynamicTest.dynamicTest(name + " sparse", () -> roundTrip(family, discriminator, record, false)));
            }
        });
        return tests.stream();
    }

    private static void roundTrip(Class<?> family, String discriminator, Class<?> record, boolean full)
            throws Exception {
        assertTrue(record.isRecord(), record + " must be a record");
        WireType wire = record.getAnnotation(WireType.class);
        if (wire == null) {
            // Only the catch-all may lack a wire name; it is covered by the unknown-type tests.
            assertEquals("Unknown", record.getSimpleName(), record + " lacks @WireType");
            RecordComponent[] components = record.getRecordComponents();
            assertEquals(1, components.length);
            assertEquals(ObjectNode.class, components[0].getType());
            return;
        }
        WireSamples samples = new WireSamples();
        Object value = full ? samples.full(record) : samples.sparse(record);

        String json = MAPPER.writeValueAsString(value);
        assertFalse(json.contains("\n"), "one line");
        JsonNode tree = MAPPER.readTree(json);
        assertTrue(tree.isObject(), json);
        assertEquals(wire.value(), tree.path(discriminator).textValue(), "discriminator in " + json);
        assertEquals(discriminator, tree.fieldNames().next(), "discriminator comes first in " + json);
        assertEquals(wire.value(), WireTypes.nameOf(record));
        assertSame(record, WireTypes.registry(family).get(wire.value()));

        // Field names on the wire are the record component names.
        for (RecordComponent component : record.getRecordComponents()) {
            Object componentValue = component.getAccessor().invoke(value);
            if (componentValue != null) {
                assertTrue(tree.has(component.getName()),
                        "'" + component.getName() + "' written under its own name in " + json);
            } else {
                assertFalse(tree.has(component.getName()), "null '" + component.getName() + "' omitted in " + json);
            }
        }
        assertNoNulls(tree, json);

        Object viaFamily = MAPPER.readValue(json, family);
        assertEquals(value, viaFamily, json);
        assertEquals(value, MAPPER.readValue(json, record), json);
        assertEquals(json, MAPPER.writeValueAsString(viaFamily), "re-serializes identically");
        if (full) {
            // Inside a list of the family type, too (the path clients and events take).
            List<?> list = MAPPER.readValue("[" + json + "," + json + "]",
                    MAPPER.getTypeFactory().constructCollectionType(List.class, family));
            assertEquals(List.of(value, value), list);
        }
    }

    /** Null optional fields are omitted, never written as null. */
    private static void assertNoNulls(JsonNode node, String json) {
        assertFalse(node.isNull(), "no literal null in " + json);
        for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
            assertNoNulls(it.next(), json);
        }
    }

    @TestFactory
    Stream<DynamicTest> responsePayloadsRoundTrip() {
        List<Class<?>> records = new ArrayList<>(List.of(Results.class.getDeclaredClasses()));
        records.add(SessionState.class);
        records.add(SessionStats.class);
        records.add(SessionStats.Tokens.class);
        return records.stream().filter(Class::isRecord).flatMap(record -> Stream.of(true, false).map(full ->
                DynamicTest.dynamicTest(record.getSimpleName() + (full ? " full" : " sparse"), () -> {
                    WireSamples samples = new WireSamples();
                    Object value = full ? samples.full(record) : samples.sparse(record);
                    String json = MAPPER.writeValueAsString(value);
                    JsonNode tree = MAPPER.readTree(json);
                    for (RecordComponent component : record.getRecordComponents()) {
                        assertEquals(component.getAccessor().invoke(value) != null, tree.has(component.getName()),
                                component.getName() + " in " + json);
                    }
                    assertNoNulls(tree, json);
                    assertEquals(value, MAPPER.readValue(json, record), json);
                })));
    }

    @Test
    void everyCommandHasACodecEntry() {
        List<Class<?>> records = WireSamples.wireRecords(Command.class);
        assertEquals(Command.class.getPermittedSubclasses().length, records.size(),
                "every command is a wire record (there is no unknown command record)");
        assertEquals(records.size(), CommandCodec.commandNames().size());
        for (Class<?> record : records) {
            String name = record.getAnnotation(WireType.class).value();
            assertSame(record, CommandCodec.commandClass(name));
        }
    }

    // --- null handling --------------------------------------------------------------------------

    @Test
    void nullOptionalFieldsAreOmitted() throws Exception {
        assertEquals("{\"type\":\"auto_retry_end\",\"success\":false,\"attempt\":3}",
                MAPPER.writeValueAsString(new AgentEvent.AutoRetryEnd(false, 3, null)));
        assertEquals("{\"type\":\"auto_retry_end\",\"success\":false,\"attempt\":3,\"finalError\":\"Retry cancelled\"}",
                MAPPER.writeValueAsString(new AgentEvent.AutoRetryEnd(false, 3, "Retry cancelled")));
        assertEquals("{\"type\":\"compaction_end\",\"reason\":\"manual\",\"aborted\":true,\"willRetry\":false}",
                MAPPER.writeValueAsString(new AgentEvent.CompactionEnd("manual", null, true, false, null)));
        assertEquals("{\"type\":\"queue_update\",\"steering\":[\"a\"],\"followUp\":[]}",
                MAPPER.writeValueAsString(new AgentEvent.QueueUpdate(List.of("a"), List.of())));
        assertEquals("{\"type\":\"thinking_level_changed\",\"level\":\"high\"}",
                MAPPER.writeValueAsString(new AgentEvent.ThinkingLevelChanged(ThinkingLevel.HIGH)));
        assertEquals("{\"type\":\"new_session\"}", MAPPER.writeValueAsString(new Command.NewSession(null)));
        assertEquals("{\"type\":\"abort\"}", MAPPER.writeValueAsString(new Command.Abort()));
        assertEquals("{\"type\":\"text\",\"text\":\"hi\"}", MAPPER.writeValueAsString(new ContentBlock.Text("hi")));
    }

    @Test
    void responseDataAbsentVersusLiteralNull() throws Exception {
        String absent = MAPPER.writeValueAsString(Response.ok("1", "get_state", null));
        assertEquals("{\"id\":\"1\",\"type\":\"response\",\"command\":\"get_state\",\"success\":true}", absent);
        assertFalse(MAPPER.readTree(absent).has("data"));

        String literal = MAPPER.writeValueAsString(Response.ok("2", "cycle_model", NullNode.instance));
        assertEquals("{\"id\":\"2\",\"type\":\"response\",\"command\":\"cycle_model\",\"success\":true,\"data\":null}",
                literal);

        assertEquals(Response.ok("1", "get_state", null), MAPPER.readValue(absent, Response.class));
        assertEquals(Response.ok("2", "cycle_model", NullNode.instance), MAPPER.readValue(literal, Response.class));
    }

    @Test
    void responseKeyOrderIsIdTypeCommandSuccessDataOrError() throws Exception {
        ObjectNode data = JsonNodeFactory.instance.objectNode().put("z", 1).put("a", 2);
        assertEquals("{\"id\":\"7\",\"type\":\"response\",\"command\":\"get_last_assistant_text\",\"success\":true,"
                        + "\"data\":{\"z\":1,\"a\":2}}",
                MAPPER.writeValueAsString(Response.ok("7", "get_last_assistant_text", data)));
        assertEquals("{\"id\":\"8\",\"type\":\"response\",\"command\":\"bash\",\"success\":false,\"error\":\"boom\"}",
                MAPPER.writeValueAsString(Response.failure("8", "bash", "boom")));
        assertEquals("{\"type\":\"response\",\"command\":\"parse\",\"success\":false,\"error\":\"Unknown error\"}",
                MAPPER.writeValueAsString(Response.failure(null, "parse", " ")));
        // Jackson's alphabetical default would put "command" first; check the order holds for a payload too.
        assertEquals(List.of("id", "type", "command", "success", "data"),
                fieldNames(MAPPER.valueToTree(Response.ok("1", "get_state",
                        MAPPER.valueToTree(new WireSamples().full(SessionState.class))))));
    }

    /** The tree as read from the wire (valueToTree would keep long fields as LongNode). */
    private static JsonNode tree(Object value) throws JsonProcessingException {
        return MAPPER.readTree(MAPPER.writeValueAsString(value));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    // --- unknown types and fields ---------------------------------------------------------------

    @Test
    void unknownEventTypeIsKeptAndWrittenBackUnchanged() throws Exception {
        String json = "{\"type\":\"future_thing\",\"x\":1,\"nested\":{\"b\":[true,null,\"\u2028\"]}}";
        AgentEvent event = MAPPER.readValue(json, AgentEvent.class);
        AgentEvent.Unknown unknown = assertInstanceOf(AgentEvent.Unknown.class, event);
        assertEquals("future_thing", unknown.type());
        assertEquals(json, MAPPER.writeValueAsString(event));
        assertEquals("{\"type\":\"future_thing\",\"x\":1}",
                MAPPER.writeValueAsString(MAPPER.readValue("{\"type\":\"future_thing\",\"x\":1}", AgentEvent.class)));
    }

    @Test
    void eventWithoutUsableTypeIsUnknown() throws Exception {
        AgentEvent missing = MAPPER.readValue("{\"x\":1}", AgentEvent.class);
        assertNull(assertInstanceOf(AgentEvent.Unknown.class, missing).type());
        AgentEvent numeric = MAPPER.readValue("{\"type\":5}", AgentEvent.class);
        assertEquals("{\"type\":5}", MAPPER.writeValueAsString(assertInstanceOf(AgentEvent.Unknown.class, numeric)));
    }

    @Test
    void nonObjectEventIsAnError() {
        assertThrows(JsonProcessingException.class, () -> MAPPER.readValue("[1]", AgentEvent.class));
        assertThrows(JsonProcessingException.class, () -> MAPPER.readValue("\"agent_start\"", AgentEvent.class));
    }

    @Test
    void autoRetryStartCarriesResumedFromOnlyWhenSomethingWasKept() throws Exception {
        assertEquals("{\"type\":\"auto_retry_start\",\"attempt\":1,\"maxAttempts\":3,\"delayMs\":2000,"
                + "\"errorMessage\":\"cut\"}",
                MAPPER.writeValueAsString(new AgentEvent.AutoRetryStart(1, 3, 2000, "cut")), "pi's shape");
        String kept = "{\"type\":\"auto_retry_start\",\"attempt\":1,\"maxAttempts\":3,\"delayMs\":2000,"
                + "\"errorMessage\":\"cut\",\"resumedFrom\":{\"textChars\":24,\"toolCalls\":1}}";
        AgentEvent.AutoRetryStart event = new AgentEvent.AutoRetryStart(1, 3, 2000, "cut",
                new dev.agentd.protocol.event.ResumedFrom(24, 1));
        assertEquals(kept, MAPPER.writeValueAsString(event));
        assertEquals(event, MAPPER.readValue(kept, AgentEvent.class), "a client reads it as a typed record");
    }

    @Test
    void unknownFieldsOnKnownRecordsAreIgnored() throws Exception {
        assertEquals(new AgentEvent.AutoRetryEnd(true, 1, null), MAPPER.readValue(
                "{\"type\":\"auto_retry_end\",\"success\":true,\"attempt\":1,\"extra\":{\"a\":[1]},\"more\":null}",
                AgentEvent.class));
        assertEquals(new AgentEvent.AgentStart(),
                MAPPER.readValue("{\"type\":\"agent_start\",\"id\":\"x\"}", AgentEvent.class));
        // Provider scratch fields that leak into partial snapshots (pi-rpc §4.2).
        AgentMessage message = MAPPER.readValue("{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\",\"id\":\"c1\","
                + "\"name\":\"read\",\"arguments\":{},\"index\":0,\"partialJson\":\"{\"}],\"api\":\"a\",\"provider\":\"p\","
                + "\"model\":\"m\",\"stopReason\":\"toolUse\",\"timestamp\":5,\"newField\":1}", AgentMessage.class);
        AgentMessage.Assistant assistant = assertInstanceOf(AgentMessage.Assistant.class, message);
        assertEquals(List.of(new ContentBlock.ToolCall("c1", "read", JsonNodeFactory.instance.objectNode())),
                assistant.content());
        assertEquals(StopReason.TOOL_USE, assistant.stopReason());
        assertEquals(Usage.ZERO, assistant.usage(), "missing usage defaults to zero");
    }

    @Test
    void unknownMessageRoleIsKeptAndWrittenBackUnchanged() throws Exception {
        String json = "{\"role\":\"system_note\",\"text\":\"x\",\"timestamp\":42}";
        AgentMessage message = MAPPER.readValue(json, AgentMessage.class);
        AgentMessage.Unknown unknown = assertInstanceOf(AgentMessage.Unknown.class, message);
        assertEquals("system_note", unknown.role());
        assertEquals(42, unknown.timestamp());
        assertEquals(json, MAPPER.writeValueAsString(message));

        // Nested inside a known event, too.
        String event = "{\"type\":\"agent_end\",\"messages\":[" + json + "],\"willRetry\":false}";
        AgentEvent.AgentEnd end = assertInstanceOf(AgentEvent.AgentEnd.class, MAPPER.readValue(event, AgentEvent.class));
        assertEquals(List.of(unknown), end.messages());
        assertEquals(event, MAPPER.writeValueAsString(end));
    }

    @Test
    void unknownContentBlockTypeIsKeptAndWrittenBackUnchanged() throws Exception {
        String block = "{\"type\":\"audio\",\"data\":\"AAAA\",\"format\":\"wav\"}";
        ContentBlock decoded = MAPPER.readValue(block, ContentBlock.class);
        assertEquals("audio", assertInstanceOf(ContentBlock.Unknown.class, decoded).type());
        assertEquals(block, MAPPER.writeValueAsString(decoded));

        String message = "{\"role\":\"toolResult\",\"toolCallId\":\"c\",\"toolName\":\"t\",\"content\":[" + block
                + ",{\"type\":\"text\",\"text\":\"ok\"}],\"isError\":false,\"timestamp\":1}";
        AgentMessage.ToolResult result = assertInstanceOf(AgentMessage.ToolResult.class,
                MAPPER.readValue(message, AgentMessage.class));
        assertInstanceOf(ContentBlock.Unknown.class, result.content().get(0));
        assertEquals(new ContentBlock.Text("ok"), result.content().get(1));
        assertEquals(message, MAPPER.writeValueAsString(result));
    }

    @Test
    void userContentAsPlainStringIsOneTextBlock() throws Exception {
        AgentMessage message = MAPPER.readValue("{\"role\":\"user\",\"content\":\"hello \u2028 world\",\"timestamp\":3}",
                AgentMessage.class);
        AgentMessage.User user = assertInstanceOf(AgentMessage.User.class, message);
        assertEquals(List.of(new ContentBlock.Text("hello \u2028 world")), user.content());
        assertEquals(3, user.timestamp());
        // Always written in the array form.
        assertEquals("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hello \u2028 world\"}],\"timestamp\":3}",
                MAPPER.writeValueAsString(user));
        AgentMessage.User array = (AgentMessage.User) MAPPER.readValue(
                "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
                        + "{\"type\":\"image\",\"data\":\"QQ==\",\"mimeType\":\"image/png\"}],\"timestamp\":4}",
                AgentMessage.class);
        assertEquals(List.of(new ContentBlock.Text("a"), new ContentBlock.Image("QQ==", "image/png")), array.content());
    }

    // --- message_update -------------------------------------------------------------------------

    private static AgentMessage.Assistant partial(String text) {
        return new AgentMessage.Assistant(List.of(new ContentBlock.Thinking("hmm"), new ContentBlock.Text(text)),
                "faux", "faux", "faux-1", null, null, null, 1234);
    }

    @Test
    void messageUpdateWritesTheSharedPartialTwice() throws Exception {
        AgentMessage.Assistant partial = partial("Hel\u2028lo");
        AgentEvent.MessageUpdate update = new AgentEvent.MessageUpdate(partial,
                new AssistantMessageEvent("text_delta", 1, "lo", null, null, partial));
        String json = MAPPER.writeValueAsString(update);
        String partialJson = MAPPER.writeValueAsString(partial);

        assertEquals("{\"type\":\"message_update\",\"message\":" + partialJson + ",\"assistantMessageEvent\":"
                + "{\"type\":\"text_delta\",\"contentIndex\":1,\"delta\":\"lo\",\"partial\":" + partialJson + "}}", json);
        JsonNode tree = MAPPER.readTree(json);
        assertEquals(tree.get("message"), tree.at("/assistantMessageEvent/partial"));
        assertEquals(tree(partial), tree.get("message"));

        AgentEvent.MessageUpdate decoded = assertInstanceOf(AgentEvent.MessageUpdate.class,
                MAPPER.readValue(json, AgentEvent.class));
        assertEquals(update, decoded);
        assertEquals(decoded.message(), decoded.assistantMessageEvent().partial());
        assertEquals(json, MAPPER.writeValueAsString(decoded), "equal but distinct objects serialize the same");
    }

    @Test
    void messageUpdatePartialIsTheSameOnEveryWritePath() throws Exception {
        // The partial is serialized once to UTF-8 and copied; chars, bytes and trees must agree.
        AgentMessage.Assistant partial = partial("Gr\u00fc\u00dfe \u2028 \ud83d\ude00 \"q\" \\");
        AgentEvent.MessageUpdate update = new AgentEvent.MessageUpdate(partial,
                new AssistantMessageEvent("text_delta", 1, "\ud83d\ude00", null, null, partial));
        String text = MAPPER.writeValueAsString(update);
        byte[] bytes = MAPPER.writeValueAsBytes(update);
        // (A UTF-8 generator escapes the emoji's surrogates, a char one does not: compare values.)
        assertEquals(MAPPER.readTree(text), MAPPER.readTree(bytes));
        assertEquals(tree(partial), MAPPER.readTree(bytes).at("/assistantMessageEvent/partial"));
        assertEquals(tree(partial), MAPPER.readTree(bytes).get("message"));
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        new dev.agentd.protocol.jsonl.JsonlWriter(line, MAPPER).write(update);
        assertEquals(new String(bytes, java.nio.charset.StandardCharsets.UTF_8) + "\n",
                line.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void messageUpdateWithDistinctMessageAndPartial() throws Exception {
        AgentMessage.Assistant message = partial("one");
        AgentMessage.Assistant other = partial("two");
        ContentBlock.ToolCall call = new ContentBlock.ToolCall("c1", "bash",
                JsonNodeFactory.instance.objectNode().put("command", "ls"));
        AgentEvent.MessageUpdate update = new AgentEvent.MessageUpdate(message,
                new AssistantMessageEvent("toolcall_end", 2, null, "text", call, other));
        String json = MAPPER.writeValueAsString(update);
        JsonNode tree = MAPPER.readTree(json);
        assertEquals(tree(message), tree.get("message"));
        assertEquals(tree(other), tree.at("/assistantMessageEvent/partial"));
        assertEquals(tree(call), tree.at("/assistantMessageEvent/toolCall"));
        assertEquals(List.of("type", "contentIndex", "content", "toolCall", "partial"),
                fieldNames(tree.get("assistantMessageEvent")));
        assertEquals(update, MAPPER.readValue(json, AgentEvent.class));
    }

    @Test
    void messageUpdateInDeltaFormHasNoPartialCopies() throws Exception {
        AgentMessage.Assistant partial = partial("Hello");
        AssistantMessageEvent full = new AssistantMessageEvent("text_delta", 0, "lo", null, null, partial);
        AssistantMessageEvent delta = full.withoutPartial();
        assertNull(delta.partial());
        assertSame(delta, delta.withoutPartial());

        AgentEvent.MessageUpdate update = new AgentEvent.MessageUpdate(null, delta);
        String json = MAPPER.writeValueAsString(update);
        assertEquals("{\"type\":\"message_update\",\"assistantMessageEvent\":"
                + "{\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"lo\"}}", json);
        JsonNode tree = MAPPER.readTree(json);
        assertFalse(tree.has("message"));
        assertFalse(tree.get("assistantMessageEvent").has("partial"));
        assertEquals(update, MAPPER.readValue(json, AgentEvent.class));
    }

    @Test
    void messageUpdateCarriesTheCumulativeUsageAtTopLevelAsPiOneDoes() throws Exception {
        Usage usage = new Usage(100, 1, 0, 0, 101, Usage.Cost.ZERO);
        AgentEvent.MessageUpdate update = new AgentEvent.MessageUpdate(null,
                new AssistantMessageEvent("text_delta", 0, "Hello ", null, null, null), usage);
        String json = MAPPER.writeValueAsString(update);
        assertTrue(json.startsWith("{\"type\":\"message_update\",\"usage\":{\"input\":100,\"output\":1,"), json);
        assertTrue(json.endsWith(",\"assistantMessageEvent\":"
                + "{\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"Hello \"}}"), json);
        JsonNode tree = MAPPER.readTree(json);
        assertEquals(101, tree.get("usage").get("totalTokens").asLong());
        assertFalse(tree.has("message"), "the delta form carries no partial");
        assertEquals(update, MAPPER.readValue(json, AgentEvent.class));
    }

    @Test
    void wholeCostsAreWrittenAsIntegersAsPiDoesAndReadBackTheSame() throws Exception {
        Usage usage = new Usage(1, 2, 0, 0, 3, new Usage.Cost(0, 1.5, 0, 2, 3.5));
        String json = MAPPER.writeValueAsString(usage);
        assertTrue(json.endsWith("\"cost\":{\"input\":0,\"output\":1.5,\"cacheRead\":0,\"cacheWrite\":2,"
                + "\"total\":3.5}}"), json);
        assertEquals(usage, MAPPER.readValue(json, Usage.class));
    }

    @Test
    void messageUpdateSerializesThePartialOnce() throws Exception {
        // A content block whose serialization is counted: the shared partial must be serialized once.
        int[] calls = {0};
        ObjectNode args = new ObjectNode(JsonNodeFactory.instance) {
            @Override
            public void serialize(com.fasterxml.jackson.core.JsonGenerator g,
                    com.fasterxml.jackson.databind.SerializerProvider provider) throws java.io.IOException {
                calls[0]++;
                super.serialize(g, provider);
            }
        };
        args.put("path", "a.txt");
        AgentMessage.Assistant partial = new AgentMessage.Assistant(List.of(new ContentBlock.ToolCall("c", "read", args)),
                "faux", "faux", "faux-1", null, null, null, 1);
        AgentEvent.MessageUpdate update = new AgentEvent.MessageUpdate(partial,
                new AssistantMessageEvent("toolcall_delta", 0, "{", null, null, partial));
        String json = MAPPER.writeValueAsString(update);
        assertEquals(1, calls[0], "partial serialized once for " + json);
        JsonNode tree = MAPPER.readTree(json);
        assertEquals("a.txt", tree.at("/assistantMessageEvent/partial/content/0/arguments/path").textValue());
        assertEquals("a.txt", tree.at("/message/content/0/arguments/path").textValue());
    }

    // --- misc shapes ------------------------------------------------------------------------------

    @Test
    void enumsUseTheirWireNames() throws Exception {
        assertEquals("{\"type\":\"set_steering_mode\",\"mode\":\"one-at-a-time\"}",
                MAPPER.writeValueAsString(new Command.SetSteeringMode(dev.agentd.protocol.model.QueueMode.ONE_AT_A_TIME)));
        assertEquals("{\"type\":\"prompt\",\"message\":\"m\",\"streamingBehavior\":\"followUp\"}",
                MAPPER.writeValueAsString(new Command.Prompt("m", null,
                        dev.agentd.protocol.model.StreamingBehavior.FOLLOW_UP)));
        AgentMessage.Assistant assistant = new AgentMessage.Assistant(List.of(), "a", "p", "m", null,
                StopReason.TOOL_USE, null, 1);
        assertEquals("toolUse", MAPPER.valueToTree(assistant).get("stopReason").textValue());
    }

    @Test
    void assistantDefaultsAndBooleanFieldNames() throws Exception {
        AgentMessage.Assistant assistant = new AgentMessage.Assistant(null, "a", "p", "m", null, null, null, 1);
        JsonNode tree = MAPPER.valueToTree(assistant);
        assertEquals("stop", tree.get("stopReason").textValue());
        assertTrue(tree.get("content").isArray());
        assertEquals(0, tree.at("/usage/cost/total").asInt(-1));
        assertFalse(tree.has("text"), "helper methods are not properties");
        assertFalse(tree.has("toolCalls"), "helper methods are not properties");

        JsonNode end = MAPPER.valueToTree(new AgentEvent.ToolExecutionEnd("c", "t", null, false));
        assertTrue(end.has("isError"), "pi's field name is isError, not error: " + end);
        assertFalse(end.has("error"));
        assertNotNull(MAPPER.valueToTree(new Results.CycledModel(null, null, true)).get("isScoped"));
    }

    @Test
    void unknownCatchAllsAreDistinctFromKnownRecords() throws Exception {
        ObjectNode json = (ObjectNode) MAPPER.readTree("{\"type\":\"agent_start\"}");
        AgentEvent known = MAPPER.treeToValue(json, AgentEvent.class);
        assertInstanceOf(AgentEvent.AgentStart.class, known);
        AgentEvent.Unknown unknown = new AgentEvent.Unknown(json);
        assertNotSame(known, unknown);
        assertEquals("agent_start", unknown.type());
        if (MAPPER.readValue(MAPPER.writeValueAsString(unknown), AgentEvent.class) instanceof AgentEvent.Unknown) {
            fail("a known type decodes to its record, not the catch-all");
        }
    }
}
