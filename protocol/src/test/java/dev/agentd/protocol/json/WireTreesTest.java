package dev.agentd.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.QueueMode;
import dev.agentd.protocol.model.ThinkingLevel;
import dev.agentd.protocol.response.Response;
import dev.agentd.protocol.response.RateLimits;
import dev.agentd.protocol.response.RetryState;
import dev.agentd.protocol.response.SessionState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-built trees of the first exchange are the mapper's, field for field and byte for byte. */
class WireTreesTest {
    private static final Model PRICED = new Model("claude-sonnet-4-5", "Claude Sonnet 4.5 😀", "anthropic-messages",
            "anthropic", "https://api.anthropic.com", true, List.of("text", "image"),
            new Model.Cost(3, 15, 0.3, 3.75), 200_000, 64_000);
    private static final Model BARE = new Model("m:1", null, "openai-completions", "local", null, false, null, null,
            4_000_000_000L, 0);

    /** N10: a models.json baseUrl with a password and a query token. */
    private static final Model SECRET_URL = new Model("m", null, "openai-completions", "purl",
            "http://user:PW-SECRET@127.0.0.1:8080/v1?key=TOKEN-SECRET", false, null, null, 8_000, 0);

    @Test
    void modelsMatchTheMapper() throws IOException {
        for (Model model : List.of(PRICED, BARE, SECRET_URL)) {
            assertSameAsMapper(model, WireTrees.model(model));
        }
    }

    @Test
    void aBaseUrlLeavesWithoutUserInfoAndQueryBothWays() throws IOException {
        String mapper = Json.mapper().writeValueAsString(SECRET_URL);
        String trees = WireTrees.model(SECRET_URL).toString();
        for (String wire : List.of(mapper, trees)) {
            assertEquals(false, wire.contains("PW-SECRET") || wire.contains("TOKEN-SECRET"), wire);
            assertEquals("http://127.0.0.1:8080/v1", Json.mapper().readTree(wire).path("baseUrl").asText());
        }
    }

    @Test
    void sessionStatesMatchTheMapper() throws IOException {
        SessionState full = new SessionState(PRICED, ThinkingLevel.HIGH, true, false, QueueMode.ALL,
                QueueMode.ONE_AT_A_TIME, "/tmp/s.jsonl", "id-1", "a name", true, 12, 2, true, true, 3,
                List.of("settings: bad", "models.json: worse"));
        SessionState sparse = new SessionState(BARE, ThinkingLevel.OFF, false, true, QueueMode.ONE_AT_A_TIME,
                QueueMode.ALL, null, "id-2", null, false, 0, 0, false, false, 0);
        SessionState noModel = new SessionState(null, null, false, false, null, null, null, null, null, false, 0, 0,
                false, false, 0);
        SessionState limited = sparse.withRateLimits(List.of(
                new RateLimits("anthropic/claude", new RateLimits.Window(50L, 49L, 1_000L, 0.02, null),
                        new RateLimits.Window(80_000L, null, null, null, null), null,
                        new RateLimits.Window(8_000L, 8_000L, 2_000L, 0.0, null),
                        Map.of("7d", new RateLimits.Window(null, null, 9_000L, 0.45, "allowed"),
                                "5h", new RateLimits.Window(null, null, 5_000L, 0.19, "allowed_warning")),
                        "allowed", 0.45, 123),
                new RateLimits("openai/gpt", null, null, null, null, null, null, null, 7)));
        SessionState resuming = limited.withRetry(new RetryState(new RetryState.Resume("anthropic/claude",
                1_800_000_000_000L, 2_500, "usage_limit")));
        for (SessionState state : List.of(full, sparse, noModel, limited, resuming)) {
            assertSameAsMapper(state, WireTrees.state(state));
        }
    }

    @Test
    void readyMatchesTheMapper() throws IOException {
        for (AgentEvent.Ready ready : List.of(new AgentEvent.Ready("0.1.0", "rpc", PRICED),
                new AgentEvent.Ready("dev", "jsonrpc", BARE, List.of("models.json: malformed")),
                new AgentEvent.Ready("dev", "rpc", null))) {
            assertSameAsMapper(ready, WireTrees.ready(ready));
            assertSame(ready.getClass(), AgentEvent.Ready.class);
        }
    }

    @Test
    void responsesMatchTheMapper() throws IOException {
        JsonNode data = WireTrees.state(new SessionState(PRICED, ThinkingLevel.LOW, false, false, QueueMode.ALL,
                QueueMode.ALL, null, "s", null, true, 0, 0, true, false, 0));
        for (Response response : List.of(Response.ok("1", "get_state", data), Response.ok("2", "cycle_model",
                NullNode.getInstance()), Response.ok(null, "abort", null), Response.failure("3", "prompt", "no key"),
                Response.failure(null, "parse", "Failed to parse command: x"))) {
            assertSameAsMapper(response, WireTrees.response(response));
        }
    }

    @Test
    void onlyTheFirstExchangesRecordsAndTreesHaveOne() {
        JsonNode tree = JsonNodeFactory.instance.objectNode().put("a", 1);
        assertSame(tree, WireTrees.of(tree));
        assertNull(WireTrees.of(new AgentEvent.AgentStart()));
        assertNull(WireTrees.of("text"));
    }

    private static void assertSameAsMapper(Object record, JsonNode tree) throws IOException {
        assertEquals(Json.mapper().valueToTree(record), tree, record.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonTrees.write(out, tree);
        assertEquals(new String(Json.mapper().writeValueAsBytes(record), StandardCharsets.UTF_8),
                out.toString(StandardCharsets.UTF_8));
    }
}
