package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.server.commands.SlashCommands;
import dev.agentd.server.mcp.McpConfig;
import dev.agentd.server.session.AgentSession;
import dev.agentd.server.testing.FakeScheduler;
import dev.agentd.server.testing.SessionHarness;
import dev.agentd.server.tools.FileAccess;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection's envelope and ordering, in process: every malformed input gets its JSON-RPC
 * error and the loop goes on; {@code available_commands_update} follows the {@code session/new}
 * answer, never precedes it.
 */
class AcpModeTest {
    @TempDir
    Path dir;

    /** Serves {@code lines} to EOF and returns what was written. */
    private List<JsonNode> serve(String... lines) throws IOException {
        return serve(SlashCommands.none(), lines);
    }

    private List<JsonNode> serve(SlashCommands commands, String... lines) throws IOException {
        List<SessionHarness> harnesses = new ArrayList<>();
        SessionOpener opener = new SessionOpener() {
            @Override
            public AgentSession open(Path cwd, Path existing, FileAccess files, UnaryOperator<List<Tool>> decorate,
                    McpConfig.Parsed mcp, Consumer<String> problems) {
                SessionHarness harness = SessionHarness.create(dir);
                harnesses.add(harness);
                return harness.session;
            }

            @Override
            public List<Stored> stored(Path cwd) {
                return List.of();
            }

            @Override
            public Optional<String> setting(String path) {
                return Optional.empty();
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        new AcpMode(new ByteArrayInputStream(input), new RpcOutput(new JsonlWriter(out, Json.mapper()), () -> { }),
                opener, new FakeScheduler(), 1 << 20, "test", commands).serve();
        harnesses.forEach(SessionHarness::close);
        List<JsonNode> written = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                written.add(Json.mapper().readTree(line));
            }
        }
        return written;
    }

    private static JsonNode reply(List<JsonNode> written, int id) {
        return written.stream().filter(n -> n.path("id").asInt(-1) == id && !n.has("method")).findFirst()
                .orElseThrow(() -> new AssertionError("no reply to " + id + " in " + written));
    }

    @Test
    void malformedInputGetsItsErrorAndTheLoopGoesOn() throws IOException {
        List<JsonNode> written = serve("{not json", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}]",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no/such\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/notification\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"nope\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/new\",\"params\":{\"cwd\":\"relative\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}");
        assertEquals(-32700, written.get(0).path("error").path("code").asInt());
        assertEquals(-32600, written.get(1).path("error").path("code").asInt());
        assertTrue(written.get(1).path("id").isNull());
        assertEquals(-32601, reply(written, 2).path("error").path("code").asInt());
        assertEquals(-32602, reply(written, 3).path("error").path("code").asInt());
        assertEquals(-32602, reply(written, 4).path("error").path("code").asInt());
        assertEquals(1, reply(written, 5).path("result").path("protocolVersion").asInt());
        assertEquals(6, written.size(), "the notification is not answered: " + written);
    }

    @Test
    void availableCommandsFollowTheSessionNewAnswer() throws IOException {
        List<JsonNode> written = serve("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/new\",\"params\":{\"cwd\":\"" + dir + "\"}}");
        int answer = written.indexOf(reply(written, 2));
        String sessionId = reply(written, 2).path("result").path("sessionId").asText();
        int commands = -1;
        for (int i = 0; i < written.size(); i++) {
            if (written.get(i).path("params").path("update").path("sessionUpdate").asText()
                    .equals("available_commands_update")) {
                commands = i;
                assertEquals(sessionId, written.get(i).path("params").path("sessionId").asText());
            }
        }
        assertTrue(answer >= 0 && commands > answer, written.toString());
        JsonNode options = reply(written, 2).path("result").path("configOptions");
        assertEquals("model", options.path(0).path("category").asText());
        assertEquals("thought_level", options.path(1).path("category").asText());
    }

    @Test
    void promptTemplatesAreOfferedAsCommands() throws IOException {
        Path agent = Files.createDirectories(dir.resolve("agent/prompts"));
        Files.writeString(agent.resolve("greet.md"), "---\ndescription: Greet someone\n---\nSay hello to $1.\n");
        SlashCommands commands = new SlashCommands(dir.resolve("agent"), dir.resolve("project"));
        List<JsonNode> written = serve(commands,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/new\",\"params\":{\"cwd\":\"" + dir + "\"}}");
        JsonNode update = written.stream().map(n -> n.path("params").path("update"))
                .filter(u -> u.path("sessionUpdate").asText().equals("available_commands_update")).findFirst()
                .orElseThrow();
        assertEquals("compact", update.path("availableCommands").path(0).path("name").asText(), update.toString());
        assertEquals("greet", update.path("availableCommands").path(1).path("name").asText(), update.toString());
        assertEquals("Greet someone", update.path("availableCommands").path(1).path("description").asText());
    }

    @Test
    void initializeAdvertisesTheApiKeyMethodAndAuthenticateAcceptsOnlyIt() throws IOException {
        List<JsonNode> written = serve("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"authenticate\",\"params\":{\"methodId\":\"agentd-api-key\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"authenticate\",\"params\":{\"methodId\":\"sk-ant-secret123\"}}");
        JsonNode method = reply(written, 1).path("result").path("authMethods").path(0);
        assertEquals("agentd-api-key", method.path("id").asText(), written.toString());
        assertTrue(method.path("description").asText().contains("ANTHROPIC_API_KEY"), method.toString());
        assertTrue(method.path("_meta").path("agentd/envVars").toString().contains("OPENAI_API_KEY"), method.toString());
        assertEquals(1, reply(written, 1).path("result").path("authMethods").size());
        assertEquals("{}", reply(written, 2).path("result").toString());
        JsonNode refused = reply(written, 3).path("error");
        assertEquals(-32602, refused.path("code").asInt());
        assertTrue(refused.path("message").asText().contains("agentd-api-key"), refused.toString());
        assertFalse(written.toString().contains("secret123"), "what was sent is never echoed: " + written);
    }

    @Test
    void requestsOutsideJsonRpcTwoAreRefusedAsInTheJsonRpcDialect() throws IOException {
        List<JsonNode> written = serve("{\"id\":1,\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":{\"an\":\"object\"},\"method\":\"initialize\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/list\",\"params\":[\"/tmp\"]}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"no/such\",\"params\":[1]}",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"initialize\",\"params\":\"text\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{}}");
        assertEquals(-32600, reply(written, 1).path("error").path("code").asInt(), written.toString());
        assertTrue(reply(written, 1).path("error").path("message").asText().contains("jsonrpc"));
        assertEquals(-32600, reply(written, 2).path("error").path("code").asInt());
        JsonNode objectId = written.get(2);
        assertTrue(objectId.path("id").isNull(), "an object id is never echoed: " + objectId);
        assertEquals(-32600, objectId.path("error").path("code").asInt());
        assertEquals(-32602, reply(written, 4).path("error").path("code").asInt());
        assertEquals(-32601, reply(written, 5).path("error").path("code").asInt());
        assertEquals(-32600, reply(written, 6).path("error").path("code").asInt());
        assertEquals(1, reply(written, 7).path("result").path("protocolVersion").asInt());
        assertEquals(7, written.size(), written.toString());
        assertFalse(written.stream().anyMatch(n -> n.has("result") && !n.path("id").isInt()), written.toString());
    }
}
