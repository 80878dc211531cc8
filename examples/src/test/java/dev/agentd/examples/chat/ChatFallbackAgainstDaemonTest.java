package dev.agentd.examples.chat;

import static dev.agentd.examples.TestDaemon.OVERLOADED;
import static dev.agentd.examples.TestDaemon.quoted;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.agentd.client.RpcClient;
import dev.agentd.client.RpcException;
import dev.agentd.examples.TestDaemon;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console chat's model-fallback notices on real events: the real daemon with a chain
 * faux-1 → faux-2 in settings.json and faux steps bound to each model, the chat's controller on a
 * fake terminal and fake time.
 */
class ChatFallbackAgainstDaemonTest {
    private static final String SETTINGS = "{\"retry\":{\"maxRetries\":1,\"baseDelayMs\":10,"
            + "\"fallbackChains\":{\"faux/faux-1\":[\"faux/faux-2\"]}}}";

    @TempDir
    Path dir;

    private final FakeTerminal terminal = new FakeTerminal();
    private final ManualScheduler time = new ManualScheduler();
    private RpcClient client;
    private ChatController chat;

    @AfterEach
    void closeDaemon() {
        if (client != null) {
            client.close();
        }
    }

    private static String failure(String model) {
        return "{\"model\":\"" + model + "\",\"error\":" + quoted(OVERLOADED) + ",\"status\":529}";
    }

    @Test
    void aSwitchAndTheFallbacksAnswerAreTold() throws Exception {
        // the script examples/README.md runs for this demo
        startChat(TestDaemon.repoRoot().resolve("examples/faux/fallback-then-answer.json"));
        Runnable idleEscape = terminal.binding(Key.ESCAPE);
        chat.submit("hello");

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(terminal::lines,
                hasItem("Fallback model faux/faux-2 answered"));
        client.waitForIdle(Duration.ofSeconds(30));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !chat.busy());
        // the switch opens the primary's circuit (FALLBACK §6), told just before the switch itself
        assertEquals(List.of("Circuit opened for faux/faux-1 (60s)",
                "Switched from faux/faux-1 to faux/faux-2 (transient)", "Answered by faux-2: faux-1 "
                + "stayed overloaded through its retries, so the fallback chain took over.",
                "Fallback model faux/faux-2 answered"), terminal.lines(),
                "one notice per fallback event, no model line for the fallback's own model_changed, no error line");
        assertEquals("", terminal.status());
        assertSame(idleEscape, terminal.binding(Key.ESCAPE));
        assertFalse(chat.busy());
    }

    @Test
    void aChainThatRunsOutSaysSoBeforeTheFinalFailure() throws Exception {
        // maxRetries 1: two requests on the primary, one on the only rung (FALLBACK §3 budget)
        startChat(TestDaemon.script(dir, "[" + failure("faux-1") + "," + failure("faux-1") + "," + failure("faux-2")
                + "]"));
        chat.submit("hello");

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(terminal::lines,
                hasItem(org.hamcrest.Matchers.startsWith("Retry failed after")));
        List<String> lines = terminal.lines();
        assertEquals("Circuit opened for faux/faux-1 (60s)", lines.get(0));
        assertEquals("Switched from faux/faux-1 to faux/faux-2 (transient)", lines.get(1));
        assertEquals("Fallback chain exhausted: " + OVERLOADED, lines.get(2));
        assertEquals(4, lines.size(), lines.toString());
    }

    private void startChat(Path script) throws Exception {
        Path agentDir = TestDaemon.agentDir(dir, SETTINGS);
        client = RpcClient.builder()
                .jar(TestDaemon.jar())
                .args("--no-session", "--model", "faux/faux-1", "--faux-script", script.toString())
                .env(Map.of("AGENTD_DIR", agentDir.toString()))
                .cwd(dir)
                .start();
        try {
            client.getFallbackState();
        } catch (RpcException e) {
            assumeFalse(e.serverError().contains("not available"), "this daemon has no model fallback yet");
            throw e;
        }
        chat = new ChatController(terminal, new RpcChatAgent(client), time);
        chat.start();
        RpcChatAgent.connect(client, chat);
    }
}
