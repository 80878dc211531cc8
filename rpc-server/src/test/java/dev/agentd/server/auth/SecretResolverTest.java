package dev.agentd.server.auth;

import static dev.agentd.server.testing.Waits.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.testing.FakeScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §2 {@code !command} values: on a worker, one limit for the whole command, cached per process. */
class SecretResolverTest {
    private static final long LIMIT = 10_000;

    @TempDir
    Path dir;
    final FakeScheduler clock = new FakeScheduler();
    final SecretResolver secrets = new SecretResolver(Map.of(), clock, LIMIT);

    /** The pid the command wrote to {@code file}, once it has. */
    private long pidIn(Path file) throws Exception {
        await().until(() -> Files.exists(file) && Files.readString(file).endsWith("\n"));
        return Long.parseLong(Files.readString(file).trim());
    }

    /**
     * The worker schedules the limit just after starting the command, so the command may have
     * written its pid before the limit exists: advancing fake time earlier would pass it by.
     */
    private void awaitLimitScheduled() {
        await().until(() -> clock.pendingDelays().equals(List.of(LIMIT)));
    }

    @Test
    void theLimitCoversACommandThatClosedItsStdoutAndKillsItsWholeTree() throws Exception {
        // The shell closes stdout at once and a child keeps running: the old code read stdout to
        // EOF and only then started its 10 s wait, so the limit never covered this part.
        Path pid = dir.resolve("pid");
        CompletableFuture<Optional<String>> outcome = secrets.command(
                "!exec >&-; sleep 300 & echo $! > " + pid + "; wait", "test key");
        long child = pidIn(pid);
        assertFalse(outcome.isDone());
        awaitLimitScheduled();

        clock.advance(LIMIT);
        assertEquals(Optional.empty(), outcome.join());
        await().until(() -> ProcessHandle.of(child).map(handle -> !handle.isAlive()).orElse(true));
    }

    @Test
    void aSlowCommandIsKilledAtTheLimitEvenWhileItsStdoutIsOpen() throws Exception {
        Path pid = dir.resolve("pid");
        CompletableFuture<Optional<String>> outcome = secrets.command(
                "!sleep 300 & echo $! > " + pid + "; wait; echo sk-late", "test key");
        long child = pidIn(pid);
        awaitLimitScheduled();
        clock.advance(LIMIT - 1);
        assertFalse(outcome.isDone());
        clock.advance(1);
        assertEquals(Optional.empty(), outcome.join());
        await().until(() -> ProcessHandle.of(child).map(handle -> !handle.isAlive()).orElse(true));
    }

    @Test
    void aCommandRunsOncePerProcessWhateverItsOutcome() throws Exception {
        Path count = dir.resolve("count");
        String spec = "!echo run >> " + count + "; printf ' sk-cmd \\n'";
        assertEquals(Optional.of("sk-cmd"), secrets.resolve(spec, "k"));
        assertEquals(Optional.of("sk-cmd"), secrets.resolve(spec, "k"));
        String failing = "!echo run >> " + count + "; exit 3";
        assertEquals(Optional.empty(), secrets.resolve(failing, "k"));
        assertEquals(Optional.empty(), secrets.resolve(failing, "k"));
        assertEquals(2, Files.readAllLines(count).size());
        assertTrue(clock.pendingDelays().isEmpty(), "a finished command's limit is cancelled");
    }

    @Test
    void aCancelledWaitReturnsAtOnceWhileTheCommandGoesOnForLaterCallers() throws Exception {
        Path pid = dir.resolve("pid");
        Path go = dir.resolve("go");
        String spec = "!echo $$ > " + pid + "; while [ ! -e " + go + " ]; do sleep 0.05; done; echo sk-slow";
        CancellationToken cancel = new CancellationToken();
        CompletableFuture<Optional<String>> waiter = CompletableFuture.supplyAsync(
                () -> secrets.resolve(spec, "k", cancel));
        pidIn(pid);
        cancel.cancel();
        assertEquals(Optional.empty(), waiter.join(), "abort does not wait for the command");
        Files.writeString(go, "");
        assertEquals(Optional.of("sk-slow"), secrets.resolve(spec, "k"), "the command finished for the next run");
    }

    @Test
    void outputBeyondAnyKeySizeIsRefused() {
        assertEquals(Optional.empty(), secrets.resolve("!yes sk-", "k"));
    }
}
