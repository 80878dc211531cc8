package dev.agentd.client;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.event.AgentEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Spawn mode against {@code bash -c} scripts standing in for the daemon. */
@EnabledOnOs({OS.LINUX, OS.MAC})
class SpawnModeTest {
    /** Answers the first command (get_state) with its own id. */
    private static final String ANSWER_GET_STATE = """
            IFS= read -r line
            id=$(printf '%s\\n' "$line" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p')
            printf '{"id":"%s","type":"response","command":"get_state","success":true,"data":{}}\\n' "$id"
            """;
    private static final String UNTIL_EOF = "while IFS= read -r line; do :; done\n";

    private RpcClient client;

    private RpcClient.Builder daemon(String script) {
        return RpcClient.builder().command(List.of("bash", "-c", script)).closeTimeout(Duration.ofSeconds(2));
    }

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void startReturnsOnceGetStateIsAnswered() {
        List<String> protocolErrors = new CopyOnWriteArrayList<>();
        List<AgentEvent> events = new CopyOnWriteArrayList<>();
        client = daemon("""
                echo 'starting up' >&2
                echo '{"type":"ready","version":"test","mode":"rpc"}'
                echo 'a stray log line on stdout'
                """ + ANSWER_GET_STATE + UNTIL_EOF)
                .env(java.util.Map.of("AGENTD_TEST", "1"))
                .onProtocolError(protocolErrors::add)
                .build();
        client.addListener(events::add);

        client.start();

        assertTrue(client.pid().isPresent());
        assertTrue(events.get(0) instanceof AgentEvent.Ready, events::toString);
        assertEquals(1, protocolErrors.size(), protocolErrors::toString);
        await().until(() -> client.stderr().contains("starting up"));
    }

    @Test
    void startFailsWithExitCodeAndStderrWhenTheDaemonExits() {
        client = daemon("echo 'fatal: cannot read settings.json' >&2; exit 3").build();

        RpcException e = assertThrows(RpcException.class, client::start);

        assertFalse(e instanceof RpcTimeoutException);
        assertTrue(e.getMessage().contains("code 3"), e.getMessage());
        assertTrue(e.getMessage().contains("fatal: cannot read settings.json"), e.getMessage());
        assertTrue(e.stderr().contains("fatal: cannot read settings.json"));
    }

    @Test
    void jarShortcutRunsThisJvmsJava() {
        client = RpcClient.builder().jar(Path.of("does-not-exist.jar")).build();

        RpcException e = assertThrows(RpcException.class, client::start);

        assertTrue(e.getMessage().contains("code 1"), e.getMessage());
        assertTrue(e.getMessage().contains("does-not-exist.jar"), e.getMessage());
    }

    @Test
    void startTimesOutAndKillsASilentDaemon() {
        client = daemon(UNTIL_EOF).startTimeout(Duration.ofMillis(300)).build();

        assertThrows(RpcTimeoutException.class, client::start);

        long pid = client.pid().orElseThrow();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void closeLeavesNoProcessBehind() {
        client = daemon(ANSWER_GET_STATE + """
                sleep 1000 &
                echo "child=$!" >&2
                """ + UNTIL_EOF).start();
        await().until(() -> client.stderr().contains("child="));
        long daemonPid = client.pid().orElseThrow();
        long childPid = childPid(client.stderr());
        assertTrue(ProcessHandle.of(childPid).isPresent());

        client.close();

        assertFalse(alive(daemonPid), "daemon still running");
        assertFalse(alive(childPid), "the daemon's child still running");
    }

    @Test
    void closeKillsADaemonThatIgnoresEofAndSigterm() {
        client = daemon(ANSWER_GET_STATE + "trap '' TERM\nexec sleep 1000\n")
                .closeTimeout(Duration.ofMillis(300))
                .start();
        long daemonPid = client.pid().orElseThrow();

        client.close();

        assertFalse(alive(daemonPid));
    }

    @Test
    void daemonExitFailsLaterRequestsWithTheExitCode() {
        client = daemon(ANSWER_GET_STATE + "echo 'panic: out of cheese' >&2\nexit 7\n").start();

        // Written or not before the exit, the request fails with the exit code (never a timeout).
        RpcException e = assertThrows(RpcException.class, client::getState);

        assertFalse(e instanceof RpcTimeoutException);
        assertTrue(e.getMessage().contains("code 7"), e.getMessage());
        assertTrue(e.getMessage().contains("out of cheese"), e.getMessage());
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static long childPid(String stderr) {
        Matcher matcher = Pattern.compile("child=(\\d+)").matcher(stderr);
        assertTrue(matcher.find(), stderr);
        return Long.parseLong(matcher.group(1));
    }
}
