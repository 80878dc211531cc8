package dev.agentd.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockserver.model.HttpResponse.response;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.testing.mock.MockProviderRig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockserver.matchers.TimeToLive;
import org.mockserver.matchers.Times;

/**
 * SPEC §5.9 over HTTP: an Anthropic SSE stream cut (no {@code message_stop}) after what it
 * delivered, then a good reply. A complete tool call is kept and runs once (the retry does not ask
 * for it again); cut text is continued by prefill and the client's final reply reads as one.
 */
class KeepPartialIT {
    @TempDir
    Path dir;
    MockProviderRig rig;

    @AfterEach
    void tearDown() {
        if (rig != null) {
            rig.close();
        }
    }

    private static String event(String type, String json) {
        return "event: " + type + "\ndata: " + json + "\n\n";
    }

    private static String start() {
        return event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"mock-model\",\"content\":[],\"stop_reason\":null,"
                + "\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}");
    }

    private static String text(int index, String text) {
        return event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index
                + ",\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
                + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index
                + ",\"delta\":{\"type\":\"text_delta\",\"text\":" + Json.mapper().valueToTree(text) + "}}");
    }

    private static String stop(int index) {
        return event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
    }

    private static String bash(int index, String command) {
        String input = Json.mapper().createObjectNode().put("command", command).toString();
        return event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index
                + ",\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"bash\",\"input\":{}}}")
                + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index
                + ",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + Json.mapper().valueToTree(input) + "}}")
                + stop(index);
    }

    private static String end() {
        return event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
                + "\"usage\":{\"output_tokens\":5}}") + event("message_stop", "{\"type\":\"message_stop\"}");
    }

    /** The next request gets {@code sse} (earlier calls answer earlier requests). */
    private void answer(int priority, String sse) {
        rig.mock().server().when(rig.expected(), Times.once(), TimeToLive.unlimited(), priority)
                .respond(response().withStatusCode(200).withHeader("content-type", "text/event-stream").withBody(sse));
    }

    private void startRig() throws IOException {
        rig = MockProviderRig.start(dir, MockProviderRig.Api.ANTHROPIC, "{\"retry\":{\"baseDelayMs\":50}}");
    }

    @Test
    void aCompleteToolCallOfACutStreamRunsOnceAndIsNotAskedForAgain() throws IOException {
        startRig();
        // cut after a complete tool_use block and half a sentence
        answer(10, start() + text(0, "I will count the runs.") + stop(0) + bash(1, "echo ran >> runs.txt")
                + text(2, "While it runs: the count so f"));
        answer(5, start() + text(0, "It ran once.") + stop(0) + end());

        MockProviderRig.Run run = rig.prompt("p1", "count");

        assertEquals(List.of("ran"), Files.readAllLines(dir.resolve("runs.txt")), "the tool ran once");
        assertEquals(1, run.all("tool_execution_start").size());
        JsonNode retry = run.all("auto_retry_start").get(0);
        assertEquals(1, retry.at("/resumedFrom/toolCalls").asInt(), retry.toString());
        assertEquals("I will count the runs.While it runs: the count so f".length(),
                retry.at("/resumedFrom/textChars").asInt(), retry.toString());
        assertEquals("It ran once.", run.text());
        List<JsonNode> requests = rig.requests();
        assertEquals(2, requests.size(), "the cut request and the one with the tool's result");
        JsonNode messages = requests.get(1).path("messages");
        assertEquals(3, messages.size(), messages.toString());
        assertEquals("toolu_1", messages.at("/1/content/1/id").asText(), messages.toString());
        assertEquals("tool_result", messages.at("/2/content/0/type").asText(), messages.toString());
        assertEquals("toolu_1", messages.at("/2/content/0/tool_use_id").asText());
    }

    @Test
    void cutTextIsContinuedByPrefillAndTheReplyReadsAsOne() throws IOException {
        startRig();
        answer(10, start() + text(0, "The capital of France is "));
        answer(5, start() + text(0, " Paris.") + stop(0) + end());

        MockProviderRig.Run run = rig.prompt("p1", "capital?");

        assertEquals("The capital of France is Paris.", run.text());
        JsonNode retry = run.all("auto_retry_start").get(0);
        assertEquals(24, retry.at("/resumedFrom/textChars").asInt(), retry.toString());
        assertEquals(0, retry.at("/resumedFrom/toolCalls").asInt());
        JsonNode last = run.all("message_end").get(run.all("message_end").size() - 1).path("message");
        assertEquals("The capital of France is Paris.", last.at("/content/0/text").asText(), last.toString());
        JsonNode messages = rig.requests().get(1).path("messages");
        JsonNode prefill = messages.get(messages.size() - 1);
        assertEquals("assistant", prefill.path("role").asText(), messages.toString());
        assertEquals("The capital of France is", prefill.at("/content/0/text").asText(), prefill.toString());
    }
}
