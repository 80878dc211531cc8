package dev.agentd.protocol.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Results;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pi 1.6's get_entries, get_tree and get_available_thinking_levels on the wire. */
class SessionInspectionCodecTest {

    private static Command decoded(String json) throws Exception {
        CommandCodec.Result result = CommandCodec.decode(Json.mapper().readTree(json));
        return assertInstanceOf(CommandCodec.Decoded.class, result, json + " -> " + result).command();
    }

    @Test
    void commandsRoundTrip() throws Exception {
        assertEquals(new Command.GetEntries("abc123"), decoded("{\"type\":\"get_entries\",\"since\":\"abc123\"}"));
        assertEquals(new Command.GetEntries(), decoded("{\"type\":\"get_entries\"}"));
        assertEquals(new Command.GetTree(), decoded("{\"type\":\"get_tree\"}"));
        assertEquals(new Command.GetAvailableThinkingLevels(), decoded("{\"type\":\"get_available_thinking_levels\"}"));
        assertEquals("{\"id\":\"1\",\"type\":\"get_entries\",\"since\":\"abc123\"}",
                CommandCodec.encode("1", new Command.GetEntries("abc123")).toString());
        assertEquals("{\"type\":\"get_entries\"}", CommandCodec.encode(null, new Command.GetEntries()).toString());
        CommandCodec.Rejected wrong = assertInstanceOf(CommandCodec.Rejected.class,
                CommandCodec.decode(Json.mapper().readTree("{\"type\":\"get_entries\",\"since\":5}")));
        assertEquals("Invalid field 'since': expected a string", wrong.error());
    }

    @Test
    void resultsDecodeAsPiWritesThem() throws Exception {
        Results.Entries entries = Json.mapper().readValue("{\"entries\":[{\"type\":\"message\",\"id\":\"def456\","
                + "\"parentId\":\"abc123\"}],\"leafId\":\"def456\"}", Results.Entries.class);
        assertEquals("def456", entries.leafId());
        assertEquals("abc123", entries.entries().get(0).path("parentId").asText());
        assertEquals(null, Json.mapper().readValue("{\"entries\":[],\"leafId\":null}", Results.Entries.class).leafId());
        Results.Tree tree = Json.mapper().readValue("{\"tree\":[{\"entry\":{\"id\":\"abc123\"},\"children\":[]}],"
                + "\"leafId\":\"abc123\"}", Results.Tree.class);
        assertEquals("abc123", tree.tree().get(0).path("entry").path("id").asText());
        assertEquals(new Results.ThinkingLevels(List.of(ThinkingLevel.OFF, ThinkingLevel.MINIMAL, ThinkingLevel.LOW,
                ThinkingLevel.MEDIUM, ThinkingLevel.HIGH)), Json.mapper().readValue(
                "{\"levels\":[\"off\",\"minimal\",\"low\",\"medium\",\"high\"]}", Results.ThinkingLevels.class));
    }
}
