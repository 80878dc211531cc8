package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.server.testing.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pi-compatible JSONL protocol through the real agentd.jar, with raw JSON lines. */
class RpcProtocolIT {
    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
            assertEquals(List.of(), daemon.nonJsonLines(), "every stdout line must be a JSON object");
            assertEquals(List.of(), daemon.batches(), "no JSON arrays in rpc mode");
        }
    }

    private DaemonProcess start(String script, String... args) throws IOException {
        Path agentDir = dir.resolve("agent");
        Files.createDirectories(agentDir);
        List<String> all = new java.util.ArrayList<>(List.of(args));
        if (script != null) {
            Path file = dir.resolve("script.json");
            Files.writeString(file, script);
            all.add("--faux-script");
            all.add(file.toString());
        }
        daemon = DaemonProcess.start(agentDir, dir, all.toArray(String[]::new));
        return daemon;
    }

    private static List<String> typesBetween(List<String> types, String from, String to) {
        int start = types.indexOf(from);
        int end = types.lastIndexOf(to);
        return types.subList(start, end + 1);
    }

    @Test
    void readyComesFirstAndGetStateAnswersWithItsId() throws IOException {
        start(null);
        JsonNode ready = daemon.awaitNth("ready", 1);
        assertEquals("rpc", ready.path("mode").asText());
        assertEquals("faux-1", ready.path("model").path("id").asText());
        JsonNode state = daemon.request(command("get_state", "s1"));
        assertTrue(state.path("success").asBoolean());
        assertEquals("get_state", state.path("command").asText());
        assertFalse(state.path("data").path("isStreaming").asBoolean());
        assertEquals("ready", daemon.types().get(0));
    }

    @Test
    void plainAnswerStreamsInOrder() throws IOException {
        start("[{\"text\":\"Hello from the faux model, streamed in pieces.\"}]");
        JsonNode accepted = daemon.request(command("prompt", "p1", "message", "hi"));
        assertTrue(accepted.path("success").asBoolean());
        daemon.awaitNth("agent_end", 1);
        List<String> run = typesBetween(daemon.types(), "agent_start", "agent_end");
        assertEquals(List.of("agent_start", "turn_start", "message_start", "message_end", "message_start"),
                run.subList(0, 5));
        assertTrue(run.subList(5, run.size() - 3).stream().allMatch("message_update"::equals));
        // pi 1.x's delta form by default: the change and the cumulative usage, no partial message
        List<JsonNode> updates = daemon.records().stream()
                .filter(node -> "message_update".equals(node.path("type").asText())).toList();
        assertFalse(updates.isEmpty());
        updates.forEach(update -> {
            assertTrue(update.path("usage").has("totalTokens"), update.toString());
            assertFalse(update.has("message") || update.path("assistantMessageEvent").has("partial"), update.toString());
        });
        assertEquals(List.of("message_end", "turn_end", "agent_end"), run.subList(run.size() - 3, run.size()));
        assertTrue(daemon.types().indexOf("response") < daemon.types().indexOf("agent_start"),
                "the prompt's response precedes its run");
        JsonNode text = daemon.request(command("get_last_assistant_text", "t"));
        assertEquals("Hello from the faux model, streamed in pieces.", text.path("data").path("text").asText());
    }

    @Test
    void scriptedToolCallTurnYieldsToolEventsThenTheNextTurn() throws IOException {
        start("[{\"toolCall\":{\"name\":\"nope\",\"arguments\":{\"x\":1}}},{\"text\":\"after the tool\"}]");
        daemon.send(command("prompt", "p1", "message", "call a tool"));
        JsonNode end = daemon.awaitNth("agent_end", 1);
        List<String> run = typesBetween(daemon.types(), "agent_start", "agent_end").stream()
                .filter(type -> !type.equals("message_update")).toList();
        assertEquals(List.of("agent_start", "turn_start", "message_start", "message_end", "message_start",
                "message_end", "tool_execution_start", "tool_execution_end", "message_start", "message_end",
                "turn_end", "turn_start", "message_start", "message_end", "turn_end", "agent_end"), run);
        JsonNode toolEnd = daemon.awaitNth("tool_execution_end", 1);
        assertTrue(toolEnd.path("isError").asBoolean());
        assertEquals("Tool nope not found", toolEnd.path("result").path("content").get(0).path("text").asText());
        List<String> roles = new java.util.ArrayList<>();
        end.path("messages").forEach(message -> roles.add(message.path("role").asText()));
        assertEquals(List.of("user", "assistant", "toolResult", "assistant"), roles);
        JsonNode toolCallDelta = daemon.await(node -> "message_update".equals(node.path("type").asText())
                && "toolcall_end".equals(node.path("assistantMessageEvent").path("type").asText()));
        assertEquals(1, toolCallDelta.path("assistantMessageEvent").path("toolCall").path("arguments").path("x").asInt());
    }

    @Test
    void promptWhileStreamingWithoutBehaviorIsRefusedThenSteerAndFollowUpAreDelivered() throws IOException {
        start("[{\"text\":\"one two three four five six seven eight\",\"chunkDelayMs\":150},"
                + "{\"text\":\"answer to steering\"},{\"text\":\"answer to follow-up\"}]");
        daemon.send(command("prompt", "p1", "message", "start"));
        daemon.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText()));
        JsonNode refused = daemon.request(command("prompt", "p2", "message", "too eager"));
        assertFalse(refused.path("success").asBoolean());
        assertTrue(refused.path("error").asText().contains("streamingBehavior"), refused.toString());
        assertTrue(daemon.request(command("prompt", "p3", "message", "steer me", "streamingBehavior", "steer"))
                .path("success").asBoolean());
        assertTrue(daemon.request(command("follow_up", "p4", "message", "later")).path("success").asBoolean());
        JsonNode state = daemon.request(command("get_state", "s"));
        assertTrue(state.path("data").path("isStreaming").asBoolean(), "get_state answers during streaming");
        assertEquals(2, state.path("data").path("pendingMessageCount").asInt());

        JsonNode end = daemon.awaitNth("agent_end", 1);
        List<String> texts = new java.util.ArrayList<>();
        end.path("messages").forEach(message -> texts.add(message.path("role").asText() + ":"
                + message.path("content").path(0).path("text").asText()));
        assertEquals(List.of("user:start", "assistant:one two three four five six seven eight", "user:steer me",
                "assistant:answer to steering", "user:later", "assistant:answer to follow-up"), texts);
    }

    @Test
    void abortMidStreamEndsTheRunWithAnAbortedMessage() throws IOException {
        start("[{\"text\":\"" + "word ".repeat(200) + "\",\"chunkDelayMs\":50}]");
        daemon.send(command("prompt", "p1", "message", "go"));
        daemon.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText()));
        JsonNode response = daemon.request(command("abort", "a1"));
        assertTrue(response.path("success").asBoolean());
        JsonNode end = daemon.awaitNth("agent_end", 1);
        JsonNode last = end.path("messages").get(end.path("messages").size() - 1);
        assertEquals("aborted", last.path("stopReason").asText());
        assertTrue(daemon.types().indexOf("agent_end") < daemon.types().lastIndexOf("response"),
                "abort answers once the agent is idle");
        assertFalse(daemon.request(command("get_state", "s")).path("data").path("isStreaming").asBoolean());
    }

    @Test
    void malformedInputIsAnsweredAndTheDaemonKeepsServing() throws IOException {
        start(null);
        daemon.send("this is not json");
        daemon.send("{\"type\":\"get_state\",\"id\":\"broken\", ");
        daemon.send("[1,2,3]");
        daemon.send("{\"type\":\"no_such_command\",\"id\":\"u1\"}");
        daemon.send("{\"type\":\"set_auto_retry\",\"id\":\"w1\",\"enabled\":\"yes\"}");
        daemon.send("{\"type\":\"set_model\",\"id\":\"w2\",\"provider\":\"faux\"}");
        daemon.send("{\"id\":\"w3\"}");
        daemon.send("{\"type\":\"prompt\",\"id\":\"w4\",\"message\":42}");
        daemon.send("");
        daemon.send("   ");
        daemon.send("{\"type\":\"get_state\",\"id\":\"crlf\"}\r");
        daemon.send("{\"type\":\"get_state\",\"id\":\"final\",\"extra\":{\"ignored\":true}}");

        JsonNode parse = daemon.await(node -> "parse".equals(node.path("command").asText()));
        assertTrue(parse.path("error").asText().startsWith("Failed to parse command: "), parse.toString());
        JsonNode recovered = daemon.response("broken");
        assertEquals("parse", recovered.path("command").asText());
        assertEquals("Unknown command: no_such_command", daemon.response("u1").path("error").asText());
        assertEquals("no_such_command", daemon.response("u1").path("command").asText());
        assertTrue(daemon.response("w1").path("error").asText().contains("'enabled'"));
        assertEquals("Missing required field 'modelId'", daemon.response("w2").path("error").asText());
        assertEquals("Missing required field 'type'", daemon.response("w3").path("error").asText());
        assertTrue(daemon.response("w4").path("error").asText().contains("'message'"));
        assertTrue(daemon.response("crlf").path("success").asBoolean());
        assertTrue(daemon.response("final").path("success").asBoolean());
        long parseErrors = daemon.records().stream().filter(node -> "parse".equals(node.path("command").asText()))
                .count();
        assertEquals(3, parseErrors, "blank lines are ignored; three malformed lines get parse errors");
    }

    @Test
    void fallbackCommandsAnswerAndAnInvalidChainIsRefusedWithItsWarning() throws IOException {
        start(null);
        JsonNode fallback = daemon.request(command("get_fallback_state", "f1"));
        assertTrue(fallback.path("success").asBoolean(), fallback.toString());
        assertTrue(fallback.path("data").path("enabled").asBoolean(), fallback.toString());
        assertEquals("cooldown-expiry", fallback.path("data").path("revertPolicy").asText());
        JsonNode refused = daemon.request(command("set_fallback_chain", "f2", "key", "faux/faux-1",
                "entries", java.util.List.of("nope/unknown-model")));
        assertFalse(refused.path("success").asBoolean(), refused.toString());
        assertEquals("set_fallback_chain", refused.path("command").asText());
        assertTrue(refused.path("error").asText().contains("nope/unknown-model"), refused.toString());
        JsonNode toggled = daemon.request(command("set_model_fallback", "f3", "enabled", false));
        assertTrue(toggled.path("success").asBoolean(), toggled.toString());
        assertFalse(daemon.request(command("get_fallback_state", "f4")).path("data").path("enabled").asBoolean());
    }

    @Test
    void aPromptSentTheMomentAgentEndArrivesIsAccepted() throws IOException {
        start("[{\"text\":\"one\"},{\"text\":\"two\"},{\"text\":\"three\"}]");
        for (int i = 1; i <= 3; i++) {
            JsonNode accepted = daemon.request(command("prompt", "p" + i, "message", "go " + i));
            assertTrue(accepted.path("success").asBoolean(), accepted.toString());
            daemon.awaitNth("agent_end", i);
        }
    }

    @Test
    void eofAndSigtermShutDownWithExitCodeZero() throws Exception {
        start(null);
        daemon.awaitNth("ready", 1);
        assertEquals(0, daemon.closeStdinAndWait());
        daemon = null;

        DaemonProcess second = start("[{\"text\":\"" + "slow ".repeat(100) + "\",\"chunkDelayMs\":100}]");
        second.send(command("prompt", "p", "message", "go"));
        second.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText()));
        second.process().destroy();
        assertTrue(second.process().waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, second.process().exitValue(), second.stderr());
        daemon = null;

        // pi 1.6: stdin closed and SIGTERM together (as process managers do) is one orderly shutdown
        DaemonProcess third = start("[{\"text\":\"" + "slow ".repeat(100) + "\",\"chunkDelayMs\":100}]");
        third.send(command("prompt", "p", "message", "go"));
        third.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText()));
        third.process().getOutputStream().close();
        // kill(1), not Process.destroy(), which also closes this side of the daemon's stdout
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(third.process().pid())).start().waitFor());
        assertTrue(third.process().waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, third.process().exitValue(), third.stderr());
        // the exit may come before this side has read the pipe to its end
        Waits.await().atMost(Duration.ofSeconds(30)).until(() -> third.types().contains("agent_settled"));
        JsonNode settled = third.await(node -> "agent_settled".equals(node.path("type").asText()));
        assertTrue(settled.path("aborted").asBoolean(), "the run was aborted and settled before the exit");
    }

    @Test
    void badArgumentsExitWithTwo() throws Exception {
        start(null, "--no-such-flag");
        assertTrue(daemon.process().waitFor(20, TimeUnit.SECONDS));
        assertEquals(2, daemon.process().exitValue());
        assertTrue(daemon.stderr().contains("--no-such-flag"));
        assertEquals(List.of(), daemon.rawLines(), "nothing on stdout");
    }

    /** pi 1.6's lifecycle signals: the answers' disposition, and one agent_settled per logical run, last. */
    @Test
    void answersCarryTheirDispositionAndEachRunSettlesOnceAfterItsLastAgentEnd() throws IOException {
        start("[{\"text\":\"one two three four five six\",\"chunkDelayMs\":150},{\"text\":\"to the steer\"},"
                + "{\"text\":\"to the follow-up\"},{\"text\":\"" + "word ".repeat(200) + "\",\"chunkDelayMs\":50}]");
        JsonNode started = daemon.request(command("prompt", "p1", "message", "start"));
        assertEquals("started", started.path("data").path("disposition").asText(), started.toString());
        daemon.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText()));
        JsonNode queued = daemon.request(command("prompt", "p2", "message", "later", "streamingBehavior", "followUp"));
        assertEquals("queued", queued.path("data").path("disposition").asText(), queued.toString());
        JsonNode steer = daemon.request(command("steer", "s1", "message", "hurry"));
        assertEquals("queued", steer.path("data").path("disposition").asText(), steer.toString());
        JsonNode settled = daemon.awaitNth("agent_settled", 1);
        assertFalse(settled.path("aborted").asBoolean(), settled.toString());
        List<String> types = daemon.types();
        assertEquals(types.lastIndexOf("agent_end") + 1, types.indexOf("agent_settled"), types.toString());

        daemon.send(command("prompt", "p3", "message", "go"));
        daemon.await(node -> "text_delta".equals(node.path("assistantMessageEvent").path("type").asText())
                && daemon.types().stream().filter("agent_start"::equals).count() == 2);
        assertTrue(daemon.request(command("abort", "a1")).path("success").asBoolean());
        assertTrue(daemon.awaitNth("agent_settled", 2).path("aborted").asBoolean());
        types = daemon.types();
        assertEquals(2, types.stream().filter("agent_settled"::equals).count(), types.toString());
        assertTrue(types.lastIndexOf("agent_settled") < types.lastIndexOf("response"),
                "settled precedes abort's answer: " + types);
    }
}
