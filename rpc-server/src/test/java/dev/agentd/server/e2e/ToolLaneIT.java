package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile tool inputs through the real process: each ends as a tool result, the daemon keeps
 * answering, stdout stays protocol-only, and no environment key reaches stdout or the session file.
 */
class ToolLaneIT {
    static final String KEY = "sk-proj-TESTSECRET-openaienv-0009";

    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
    }

    private static String call(String name, String arguments) {
        return "{\"toolCall\":{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}}";
    }

    @Test
    void hostileToolCallsEndAsResultsAndNothingLeaks() throws Exception {
        Path agentDir = Files.createDirectories(dir.resolve("agent"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Process mkfifo = new ProcessBuilder("mkfifo", work.resolve("pipe").toString()).start();
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo available");
        Files.writeString(work.resolve("min.js"), "ab".repeat(50_000) + "\n");
        try (RandomAccessFile big = new RandomAccessFile(work.resolve("big.txt").toFile(), "rw")) {
            big.write("hello\n".getBytes());
            big.setLength(2_200_000_000L); // sparse
        }
        List<String> calls = List.of(
                call("read", "{\"path\":\"/dev/stdin\"}"),
                call("read", "{\"path\":\"pipe\"}"),
                call("write", "{\"path\":\"/dev/stdout\",\"content\":\"NOT JSON from write\\n\"}"),
                call("write", "{\"path\":\"/proc/self/fd/1\",\"content\":\"NOT JSON from fd1\\n\"}"),
                call("bash", "{\"command\":\"echo NOT-JSON-from-bash > /proc/$PPID/fd/1\"}"),
                call("bash", "{\"command\":\"env\",\"timeout\":1e12}"),
                call("grep", "{\"pattern\":\"(ab|cd)+x\",\"path\":\"min.js\"}"),
                call("edit", "{\"path\":\"big.txt\",\"oldText\":\"hello\",\"newText\":\"bye\"}"));
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[" + String.join(",", calls) + ",{\"text\":\"all done\"}]");
        daemon = DaemonProcess.start(agentDir, work, Map.of("OPENAI_API_KEY", KEY),
                "--model", "faux/faux-1", "--faux-script", script.toString(), "--tools", "read,write,edit,bash,grep");

        daemon.send(command("prompt", "p", "message", "try the hostile calls"));
        daemon.send(command("get_state", "victim-1"));
        daemon.awaitNth("agent_end", 1);
        JsonNode messages = daemon.awaitNth("agent_end", 1).path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        assertEquals("all done", last.path("content").path(0).path("text").asText(), last.toString());
        List<JsonNode> ends = daemon.records().stream()
                .filter(node -> "tool_execution_end".equals(node.path("type").asText())).toList();
        assertEquals(calls.size(), ends.size());
        List<String> texts = ends.stream().map(n -> n.path("result").path("content").path(0).path("text").asText())
                .toList();
        for (int i : new int[] {0, 1, 2, 3, 6, 7}) {
            assertTrue(ends.get(i).path("isError").asBoolean(), texts.get(i));
        }
        assertTrue(texts.get(1).contains("not a regular file"), texts.get(1));
        assertTrue(texts.get(4).contains("NOT-JSON-from-bash"), texts.get(4));
        assertFalse(ends.get(5).path("isError").asBoolean(), texts.get(5));
        assertTrue(texts.get(6).startsWith("Pattern too complex"), texts.get(6));
        assertTrue(texts.get(7).startsWith("File too large"), texts.get(7));

        assertEquals("get_state", daemon.response("victim-1").path("command").asText(), "not eaten by read");
        assertTrue(daemon.request(command("abort", "a")).path("success").asBoolean());
        assertFalse(daemon.request(command("get_state", "s")).path("data").path("isStreaming").asBoolean());
        String sessionFile = daemon.request(command("get_state", "s2")).path("data").path("sessionFile").asText();
        assertEquals(0, daemon.closeStdinAndWait());
        assertEquals(List.of(), daemon.nonJsonLines());
        assertFalse(String.join("\n", daemon.rawLines()).contains(KEY), "key in stdout");
        assertFalse(daemon.stderr().contains(KEY), "key in stderr");
        try (Stream<Path> files = Files.walk(agentDir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertFalse(Files.readString(file).contains(KEY), "key in " + file);
            }
        }
        assertTrue(sessionFile.endsWith(".jsonl"), sessionFile);
    }
}
