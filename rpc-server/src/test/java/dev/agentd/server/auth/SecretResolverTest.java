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
        CompletableFuture<SecretResolver.Outcome> outcome = secrets.command(
                "!exec >&-; sleep 300 & echo $! > " + pid + "; wait", "test key");
        long child = pidIn(pid);
        assertFalse(outcome.isDone());
        awaitLimitScheduled();

        clock.advance(LIMIT);
        assertEquals("timed out after 10 s", ((SecretResolver.Outcome.Failure) outcome.join()).cause());
        await().until(() -> ProcessHandle.of(child).map(handle -> !handle.isAlive()).orElse(true));
    }

    @Test
    void aSlowCommandIsKilledAtTheLimitEvenWhileItsStdoutIsOpen() throws Exception {
        Path pid = dir.resolve("pid");
        CompletableFuture<SecretResolver.Outcome> outcome = secrets.command(
                "!sleep 300 & echo $! > " + pid + "; wait; echo sk-late", "test key");
        long child = pidIn(pid);
        awaitLimitScheduled();
        clock.advance(LIMIT - 1);
        assertFalse(outcome.isDone());
        clock.advance(1);
        assertTrue(outcome.join() instanceof SecretResolver.Outcome.Failure, outcome.join().toString());
        await().until(() -> ProcessHandle.of(child).map(handle -> !handle.isAlive()).orElse(true));
    }

    @Test
    void aSuccessIsCachedForTheProcessAFailureForItsBackoff() throws Exception {
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

    /** N9: one failed run (a dismissed unlock, an offline vault) no longer fails every later prompt. */
    @Test
    void aCommandThatFailedOnceRunsAgainAfterItsBackoffAndItsSuccessIsKept() throws Exception {
        Path count = dir.resolve("count");
        String spec = "!echo run >> " + count + "; [ $(wc -l < " + count + ") -ge 2 ] || exit 1; echo sk-second-run";
        SecretResolver.Resolution first = secrets.attempt(spec, "adv's key (models.json apiKey)",
                CancellationToken.none());
        assertEquals(new SecretResolver.Resolution.Failed("The command for adv's key (models.json apiKey) exited "
                + "with status 1; it runs again on the first request after 5 s."), first);

        clock.advance(CommandBackoff.FIRST_MS - 1);
        SecretResolver.Resolution within = secrets.attempt(spec, "adv's key (models.json apiKey)",
                CancellationToken.none());
        assertTrue(within instanceof SecretResolver.Resolution.Failed failed
                && failed.problem().contains("exited with status 1; it runs again on the first request after 1 ms"),
                within.toString());
        assertEquals(1, Files.readAllLines(count).size(), "within the back-off the failure is reused");

        clock.advance(1);
        assertEquals(new SecretResolver.Resolution.Found("sk-second-run"), secrets.attempt(spec, "k",
                CancellationToken.none()));
        clock.advance(CommandBackoff.MAX_MS * 2);
        assertEquals(Optional.of("sk-second-run"), secrets.resolve(spec, "k"));
        assertEquals(2, Files.readAllLines(count).size(), "a success is kept for the process");
    }

    @Test
    void theBackoffDoublesWithEachFailureInARowUpToItsCap() throws Exception {
        Path count = dir.resolve("count");
        String spec = "!echo run >> " + count + "; exit 2";
        assertEquals(Optional.empty(), secrets.resolve(spec, "k"));
        clock.advance(5_000);
        assertEquals(Optional.empty(), secrets.resolve(spec, "k")); // second run: next pause 10 s
        clock.advance(9_999);
        assertEquals(Optional.empty(), secrets.resolve(spec, "k"));
        assertEquals(2, Files.readAllLines(count).size());
        clock.advance(1);
        assertEquals(Optional.empty(), secrets.resolve(spec, "k"));
        assertEquals(3, Files.readAllLines(count).size());
        assertEquals(List.of(5_000L, 10_000L, 20_000L, 300_000L, 300_000L), List.of(CommandBackoff.afterFailures(1),
                CommandBackoff.afterFailures(2), CommandBackoff.afterFailures(3), CommandBackoff.afterFailures(7),
                CommandBackoff.afterFailures(Integer.MAX_VALUE)));
    }

    /** N17: two lines are not a key; the problem says so instead of a refused header on every prompt. */
    @Test
    void severalLinesOrNothingAreNamedAndNoOutputIsQuoted() {
        SecretResolver.Resolution twoLines = secrets.attempt("!printf 'sk-line-one\nsk-line-two\n'",
                "adv's key (auth.json credential 1)", CancellationToken.none());
        assertEquals(new SecretResolver.Resolution.Failed("The command for adv's key (auth.json credential 1) printed "
                + "several lines (expected one line: the value); it runs again on the first request after 5 s."),
                twoLines);
        SecretResolver.Resolution nothing = secrets.attempt("!printf '  \n'", "k", CancellationToken.none());
        assertTrue(nothing.toString().contains("printed nothing"), nothing.toString());
        SecretResolver.Resolution status = secrets.attempt("!echo sk-in-stderr >&2; echo sk-in-stdout; exit 3", "k",
                CancellationToken.none());
        assertTrue(status.toString().contains("exited with status 3"), status.toString());
        assertFalse(status.toString().contains("sk-in"), status.toString());
    }

    @Test
    void aTimedOutCommandIsNamedWithItsLimit() throws Exception {
        Path pid = dir.resolve("pid");
        CompletableFuture<SecretResolver.Resolution> waiter = CompletableFuture.supplyAsync(() -> secrets.attempt(
                "!echo $$ > " + pid + "; sleep 300", "adv's key (models.json apiKey)", CancellationToken.none()));
        pidIn(pid);
        awaitLimitScheduled();
        clock.advance(LIMIT);
        assertTrue(waiter.join().toString().contains("The command for adv's key (models.json apiKey) timed out after "
                + "10 s;"), waiter.join().toString());
    }
}
