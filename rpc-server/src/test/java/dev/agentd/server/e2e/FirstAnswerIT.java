package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up (issue 18): {@code ready} and the answer to a first {@code get_state} — numeric id
 * included — are written without building the {@code ObjectMapper}, so they never wait for it.
 * The JVM's class-initialisation log of the real jar (warm-up switched off, so that only the
 * exchange itself can build the mapper) shows the mapper's class first initialised after a
 * later command was decoded.
 */
class FirstAnswerIT {
    private static final String MAPPER_INIT = "Initializing 'dev/agentd/protocol/json/Json'";
    private static final String LATER_COMMAND_INIT = "Initializing 'dev/agentd/protocol/command/Command$GetSessionStats'";

    @TempDir
    Path dir;

    @Test
    void readyAndTheFirstGetStateNeedNoObjectMapper() throws Exception {
        Path log = dir.resolve("class-init.log");
        Map<String, String> env = Map.of("JAVA_TOOL_OPTIONS",
                "-Dagentd.codecWarmup=false -Xlog:class+init=info:file=" + log);
        try (DaemonProcess daemon = DaemonProcess.start(Files.createDirectories(dir.resolve("agent")), dir, env,
                "--no-session")) {
            JsonNode ready = daemon.awaitNth("ready", 1);
            assertEquals("faux-1", ready.path("model").path("id").asText(), ready.toString());
            JsonNode state = daemon.request(command("get_state", "first"));
            assertEquals("faux-1", state.path("data").path("model").path("id").asText(), state.toString());
            daemon.send("{\"type\":\"get_state\",\"id\":7}");
            JsonNode numeric = daemon.await(node -> node.path("id").isInt() && node.path("id").asInt() == 7);
            assertTrue(numeric.path("success").asBoolean(), numeric.toString());
            assertTrue(daemon.request(command("get_session_stats", "later")).path("success").asBoolean());
            assertEquals(0, daemon.closeStdinAndWait());
        }
        List<String> lines = Files.readAllLines(log);
        int later = indexOf(lines, LATER_COMMAND_INIT);
        int mapper = indexOf(lines, MAPPER_INIT);
        assertTrue(later >= 0 && mapper >= 0, "both initialised: later=" + later + " mapper=" + mapper);
        assertTrue(mapper > later, "the mapper was built before the first exchange was over");
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
