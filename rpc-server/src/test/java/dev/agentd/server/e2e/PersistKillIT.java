package dev.agentd.server.e2e;

import static dev.agentd.server.e2e.DaemonProcess.command;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL right after the client reads a message_end: the message is in the session file that
 * --continue reopens (user, assistant and toolResult alike), round after round.
 */
class PersistKillIT {
    @TempDir
    Path dir;
    DaemonProcess daemon;

    @AfterEach
    void tearDown() {
        if (daemon != null) {
            daemon.close();
        }
    }

    private DaemonProcess start(String... args) throws IOException {
        return DaemonProcess.start(Files.createDirectories(dir.resolve("agent")), dir, args);
    }

    @Test
    void everyMessageWhoseEndWasSeenSurvivesAKill() throws Exception {
        daemon = start();
        daemon.send(command("prompt", "p0", "message", "warm-up"));
        daemon.awaitNth("agent_end", 1);
        awaitIdle();
        int round = 0;
        for (String role : List.of("user", "assistant", "toolResult", "user", "assistant", "toolResult")) {
            round++;
            String marker = "round-" + round;
            killAfterMessageEnd(role, marker);
            daemon = start("--continue");
            JsonNode messages = daemon.request(command("get_messages", "m" + round)).path("data").path("messages");
            assertTrue(messages.toString().contains(marker), role + " of " + marker + " lost: " + messages);
        }
    }

    @Test
    void theFirstPromptOfANewSessionSurvivesAKillRightAfterItsMessageEnd() throws Exception {
        daemon = start();
        killAfterMessageEnd("user", "first");
        daemon = start("--continue");
        JsonNode messages = daemon.request(command("get_messages", "m")).path("data").path("messages");
        assertTrue(messages.toString().contains("first-prompt"), "the first prompt was lost: " + messages);
    }

    /** agent_end may precede the session's return to idle by a moment; a prompt then would be refused. */
    private void awaitIdle() {
        int[] n = {0};
        dev.agentd.server.testing.Waits.await().atMost(java.time.Duration.ofSeconds(30)).until(() ->
                !daemon.request(command("get_state", "idle-" + n[0]++)).path("data").path("isStreaming").asBoolean());
    }

    private void killAfterMessageEnd(String role, String marker) throws Exception {
        String script = "[{\"toolCall\":{\"name\":\"bash\",\"arguments\":{\"command\":\"echo " + marker
                + "-tool\"}}},{\"text\":\"" + marker + "-answer\"}]";
        daemon.send("{\"type\":\"faux_enqueue\",\"id\":\"e-" + marker + "\",\"steps\":" + script + "}");
        daemon.response("e-" + marker);
        daemon.send(command("prompt", "p-" + marker, "message", marker + "-prompt"));
        daemon.await(node -> "message_end".equals(node.path("type").asText())
                && role.equals(node.path("message").path("role").asText())
                && node.toString().contains(marker));
        daemon.process().destroyForcibly(); // SIGKILL
        assertTrue(daemon.process().waitFor(20, TimeUnit.SECONDS));
    }
}
