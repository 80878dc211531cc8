package dev.agentd.examples.chat;

import static dev.agentd.examples.TestDaemon.OVERLOADED;
import static dev.agentd.examples.TestDaemon.quoted;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.client.RpcClient;
import dev.agentd.examples.TestDaemon;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console chat's retry experience against the real daemon on a faux script: the chat's
 * controller with a fake terminal and fake time, the real client and daemon underneath.
 */
class ChatRetryAgainstDaemonTest {
    private static final String FAILURE = "{\"error\":" + quoted(OVERLOADED) + ",\"status\":529}";

    @TempDir
    Path dir;

    /** Generous: a loaded CI machine may take seconds to start a JVM; the wait ends as soon as it can. */
    private static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(60));
    }

    private final FakeTerminal terminal = new FakeTerminal();
    private final ManualScheduler time = new ManualScheduler();
    private RpcClient client;
    private RecordingAgent agent;
    private ChatController chat;
    private Runnable idleEscape;

    @AfterEach
    void closeDaemon() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void escapeCancelsTheWaitingRetryAndRestoresTheAbortAction() throws Exception {
        // A one-minute backoff: the real retry cannot fire before Esc; the countdown runs on fake time.
        // no jitter: the countdown's first figure is the subject here
        startChat("{\"retry\":{\"maxRetries\":3,\"baseDelayMs\":60000,\"jitterRatio\":0}}",
                "[" + FAILURE + ",{\"text\":\"late\"}]");
        chat.submit("hello");

        await().until(terminal::status, equalTo("Retrying (1/3) in 60s… (esc to cancel)"));
        time.advance(1000);
        assertEquals("Retrying (1/3) in 59s… (esc to cancel)", terminal.status());

        terminal.press(Key.ESCAPE);
        await().until(terminal::lines, hasItem("Retry cancelled"));
        assertEquals(List.of("prompt hello", "abortRetry"), agent.calls());
        assertEquals("", terminal.status());
        assertSame(idleEscape, terminal.binding(Key.ESCAPE), "Esc aborts runs again");
        assertEquals(0, time.pending(), "the countdown stopped");

        client.waitForIdle(Duration.ofSeconds(30));
        assertFalse(chat.busy());
        assertFalse(client.getState().isRetrying());
    }

    @Test
    void aChainThatRunsOutOfRetriesPrintsTheFinalFailure() throws Exception {
        startChat("{\"retry\":{\"maxRetries\":1,\"baseDelayMs\":10}}", "[" + FAILURE + "," + FAILURE + "]");
        chat.submit("hello");

        String expected = "Retry failed after 1 attempts: " + OVERLOADED;
        await().until(terminal::lines, hasItem(expected));
        assertEquals(List.of(expected), terminal.lines(), "no other error line");
        assertEquals("Retrying (1/1) in 1s… (esc to cancel)", terminal.statuses().get(0));
        assertEquals("", terminal.status());
        assertSame(idleEscape, terminal.binding(Key.ESCAPE));
        assertFalse(chat.busy());
    }

    @Test
    void aRetryThatSucceedsStreamsTheAnswerAndRestoresTheAbortAction() throws Exception {
        startChat("{\"retry\":{\"maxRetries\":3,\"baseDelayMs\":10}}", "[" + FAILURE + ",{\"text\":\"Recovered.\"}]");
        chat.submit("hello");

        await().until(terminal::lines, hasItem("Recovered."));
        client.waitForIdle(Duration.ofSeconds(30));
        await().until(chat::busy, equalTo(false));
        assertEquals(List.of("Recovered."), terminal.lines());
        assertTrue(terminal.statuses().contains("Retrying (1/3) in 1s… (esc to cancel)"));
        assertEquals("", terminal.status());
        assertSame(idleEscape, terminal.binding(Key.ESCAPE));
    }

    private void startChat(String settings, String script) throws Exception {
        Path agentDir = TestDaemon.agentDir(dir, settings);
        client = RpcClient.builder()
                .jar(TestDaemon.jar())
                .args("--no-session", "--model", "faux/faux-1", "--faux-script", TestDaemon.script(dir, script).toString())
                .env(Map.of("AGENTD_DIR", agentDir.toString()))
                .cwd(dir)
                .start();
        agent = new RecordingAgent(new RpcChatAgent(client));
        chat = new ChatController(terminal, agent, time);
        chat.start();
        idleEscape = terminal.binding(Key.ESCAPE);
        RpcChatAgent.connect(client, chat);
    }
}
