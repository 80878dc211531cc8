package dev.agentd.server.tools;

import static dev.agentd.server.testing.Waits.await;
import static dev.agentd.server.tools.ToolCalls.call;
import static dev.agentd.server.tools.ToolCalls.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.event.ToolOutput;
import dev.agentd.server.runtime.CancellationToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bash tool and {@link BashExecutor}: streaming, truncation, exit codes, timeouts, tree kills. */
class BashToolTest {
    /** Shell, a child subshell (exec'd into sleep), and the child's background grandchild. */
    static final String TREE = "(sleep 1000 & echo grandchild=$!; exec sleep 1000) & echo child=$!; echo shell=$$; wait";

    @TempDir
    Path cwd;
    BashTool bash;
    final List<Long> started = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        bash = new BashTool(cwd, new BashExecutor());
    }

    /** Whatever a failing test left behind must not outlive it. */
    @AfterEach
    void killLeftovers() {
        started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void runsInTheCwdAndReturnsOutput() throws Exception {
        Files.writeString(cwd.resolve("marker.txt"), "x");
        ToolResult result = call(bash, "{\"command\":\"pwd; ls\"}");
        assertFalse(result.isError(), text(result));
        assertEquals(cwd.toRealPath() + "\nmarker.txt", text(result));
        assertNull(result.details());
        assertEquals("(no output)", text(call(bash, "{\"command\":\"true\"}")));
    }

    @Test
    void stderrIsMergedInArrivalOrder() throws Exception {
        ToolResult result = call(bash, "{\"command\":\"echo out1; echo err1 >&2; echo out2; echo err2 >&2\"}");
        assertEquals("out1\nerr1\nout2\nerr2", text(result));
    }

    @Test
    void aNonZeroExitIsAnErrorNamingTheCode() throws Exception {
        ToolResult result = call(bash, "{\"command\":\"echo partial; exit 3\"}");
        assertTrue(result.isError());
        assertEquals("partial\n\nCommand exited with code 3", text(result));
        assertEquals("Command exited with code 1", text(call(bash, "{\"command\":\"false\"}")));
    }

    @Test
    void theResultCarriesPiOnesStructuredContentAlsoForANonZeroExit() throws Exception {
        JsonNode failed = call(bash, "{\"command\":\"echo partial; exit 3\"}").output().structuredContent();
        assertEquals("partial", failed.path("output").asText());
        assertEquals(3, failed.path("exit_code").asInt());
        assertFalse(failed.path("truncated").asBoolean());
        assertFalse(failed.has("full_output_path"));
        assertTrue(failed.path("wall_time_seconds").isNumber() && failed.path("wall_time_seconds").asDouble() >= 0);

        ToolResult longRun = call(bash, "{\"command\":\"seq 1 5000\"}");
        JsonNode structured = longRun.output().structuredContent();
        assertTrue(structured.path("truncated").asBoolean());
        assertEquals(longRun.details().path("fullOutputPath").asText(), structured.path("full_output_path").asText());
        assertEquals(0, structured.path("exit_code").asInt());
        Files.deleteIfExists(Path.of(structured.path("full_output_path").asText()));
    }

    @Test
    void outputStreamsWhileTheCommandRuns() throws Exception {
        CancellationToken cancel = new CancellationToken();
        List<String> updates = new CopyOnWriteArrayList<>();
        AtomicBoolean secondSeen = new AtomicBoolean();
        CompletableFuture<ToolResult> run = CompletableFuture.supplyAsync(() -> {
            try {
                return call(bash, "{\"command\":\"echo first; sleep 2; echo second\"}", cancel, output -> {
                    String text = text(output);
                    updates.add(text);
                    secondSeen.compareAndSet(false, text.contains("second"));
                });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            await().until(() -> updates.stream().anyMatch(u -> u.contains("first")));
            // The update arrived while the command was still sleeping.
            assertFalse(run.isDone());
            assertFalse(secondSeen.get());
            assertEquals("first", updates.get(0));
        } finally {
            cancel.cancel();
        }
        ToolResult result = run.get();
        assertTrue(result.isError());
        assertEquals("first\n\nCommand aborted", text(result));
    }

    @Test
    void longOutputKeepsTheTailAndTheFullOutputInATempFile() throws Exception {
        ToolResult result = call(bash, "{\"command\":\"seq 1 5000\"}");
        assertFalse(result.isError());
        String text = text(result);
        String fullPath = result.details().path("fullOutputPath").asText();
        assertTrue(text.startsWith("3001\n"), text.substring(0, 20));
        assertTrue(text.contains("\n5000\n\n[Showing lines 3001-5000 of 5000. Full output: " + fullPath + "]"),
                text.substring(text.length() - 200));
        assertEquals("lines", result.details().path("truncation").path("truncatedBy").asText());
        Path full = Path.of(fullPath);
        try {
            List<String> lines = Files.readAllLines(full);
            assertEquals(5000, lines.size());
            assertEquals("1", lines.get(0));
            assertEquals("5000", lines.get(4999));
        } finally {
            Files.deleteIfExists(full);
        }
    }

    @Test
    void hugeOutputIsBoundedByBytesAndKeptWhole() throws Exception {
        // 3 MB: well past the in-memory window, so the kept tail comes from a trimmed buffer.
        BashExecution run = new BashExecutor().run("head -c 3000000 /dev/zero | tr '\\0' 'a' | fold -w 1000", cwd,
                null, null, s -> {});
        try {
            assertTrue(run.truncated());
            assertEquals(0, run.exitCode());
            assertTrue(Truncation.utf8Length(run.output()) <= Truncation.MAX_BYTES);
            assertEquals(3000, run.truncation().totalLines());
            assertEquals(3_000_000L + 2999, Files.size(run.fullOutputPath()), "the bytes plus fold's newlines");
        } finally {
            Files.deleteIfExists(run.fullOutputPath());
        }
    }

    @Test
    void abortKillsTheWholeProcessTree() throws Exception {
        assertTreeDiesOnCancel(new BashExecutor());
    }

    @Test
    void abortKillsTheTreeEvenWithoutSetsid() throws Exception {
        assertTreeDiesOnCancel(new BashExecutor(BashExecutor.findShell(), null));
    }

    private void assertTreeDiesOnCancel(BashExecutor executor) throws Exception {
        CancellationToken cancel = new CancellationToken();
        List<String> updates = new CopyOnWriteArrayList<>();
        CompletableFuture<BashExecution> run = CompletableFuture.supplyAsync(() -> {
            try {
                return executor.run(TREE, cwd, null, cancel, updates::add);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Map<String, Long> pids;
        try {
            await().until(() -> updates.stream().anyMatch(u -> u.contains("shell=") && u.contains("grandchild=")));
            pids = pids(updates.get(updates.size() - 1));
            started.addAll(pids.values());
            assertEquals(3, pids.size(), pids.toString());
            pids.values().forEach(pid -> assertTrue(running(pid), "should run before abort: " + pid));
        } finally {
            cancel.cancel();
        }
        BashExecution result = run.get();
        assertTrue(result.cancelled());
        assertNull(result.exitCode());
        await().atMost(Duration.ofSeconds(5)).until(() -> pids.values().stream().noneMatch(BashToolTest::running));
    }

    @Test
    void abortKillsOrphansLeftInTheProcessGroup() throws Exception {
        assumeTrue(BashExecutor.findSetsid() != null, "needs setsid for a process group");
        CancellationToken cancel = new CancellationToken();
        List<String> updates = new CopyOnWriteArrayList<>();
        // The subshell exits at once: its sleep is re-parented to init, out of reach of descendants().
        CompletableFuture<BashExecution> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new BashExecutor().run("(sleep 1000 & echo orphan=$!); sleep 1000", cwd, null, cancel,
                        updates::add);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long orphan;
        try {
            await().until(() -> updates.stream().anyMatch(u -> u.contains("orphan=")));
            orphan = pids(updates.get(updates.size() - 1)).get("orphan");
            started.add(orphan);
            assertTrue(running(orphan));
        } finally {
            cancel.cancel();
        }
        assertTrue(run.get().cancelled());
        await().atMost(Duration.ofSeconds(5)).until(() -> !running(orphan));
    }

    @Test
    void abortKillsADoubleForkedDaemonThroughItsMarker() throws Exception {
        assumeTrue(BashExecutor.findSetsid() != null && Files.isDirectory(Path.of("/proc/self")),
                "needs setsid -f and /proc");
        CancellationToken cancel = new CancellationToken();
        List<String> updates = new CopyOnWriteArrayList<>();
        // setsid -f forks into a new session: neither the process group nor descendants() sees it.
        CompletableFuture<BashExecution> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new BashExecutor().run("setsid -f sh -c 'echo daemon=$$; exec sleep 1000' </dev/null; sleep 1000",
                        cwd, null, cancel, updates::add);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long daemon;
        try {
            await().until(() -> updates.stream().anyMatch(u -> u.contains("daemon=")));
            daemon = pids(updates.get(updates.size() - 1)).get("daemon");
            started.add(daemon);
            await().until(() -> running(daemon));
            assertTrue(ProcessHandle.current().descendants().noneMatch(h -> h.pid() == daemon),
                    "the daemon left the tree");
        } finally {
            cancel.cancel();
        }
        assertTrue(run.get().cancelled());
        await().atMost(Duration.ofSeconds(5)).until(() -> !running(daemon));
    }

    @Test
    void theMarkerMatchesWholeEnvironmentEntriesOnly() {
        byte[] entry = "AGENTD_COMMAND_ID=1-a".getBytes(StandardCharsets.UTF_8);
        assertTrue(ProcessTree.containsEntry("A=1\0AGENTD_COMMAND_ID=1-a\0B=2".getBytes(StandardCharsets.UTF_8), entry));
        assertTrue(ProcessTree.containsEntry("AGENTD_COMMAND_ID=1-a".getBytes(StandardCharsets.UTF_8), entry));
        assertFalse(ProcessTree.containsEntry("AGENTD_COMMAND_ID=1-ab\0".getBytes(StandardCharsets.UTF_8), entry));
        assertFalse(ProcessTree.containsEntry("XAGENTD_COMMAND_ID=1-a\0".getBytes(StandardCharsets.UTF_8), entry));
        assertFalse(ProcessTree.containsEntry(new byte[0], entry));
    }

    @Test
    void aTimeoutKillsTheTreeAndSaysSo() throws Exception {
        long start = System.nanoTime();
        ToolResult result = call(bash, "{\"command\":\"sleep 10 & echo bg=$!; sleep 10\",\"timeout\":1}");
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 5);
        assertTrue(result.isError());
        String text = text(result);
        assertTrue(text.endsWith("\n\nCommand timed out after 1 seconds"), text);
        long background = pids(text).get("bg");
        started.add(background);
        await().atMost(Duration.ofSeconds(5)).until(() -> !running(background));
    }

    @Test
    void aFinishedCommandLeavesItsBackgroundJobsAlone() throws Exception {
        long start = System.nanoTime();
        ToolResult result = call(bash, "{\"command\":\"sleep 30 & echo bg=$!; echo done\"}");
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 5);
        assertFalse(result.isError(), text(result));
        long background = pids(text(result)).get("bg");
        started.add(background);
        assertTrue(text(result).endsWith("\ndone"), text(result));
        assertTrue(running(background));
    }

    @Test
    void aCancelledTokenRunsNothingAndBadArgumentsAreRejected() throws Exception {
        CancellationToken cancel = new CancellationToken();
        cancel.cancel();
        BashExecution run = new BashExecutor().run("touch made", cwd, null, cancel, s -> {});
        assertTrue(run.cancelled());
        assertFalse(Files.exists(cwd.resolve("made")));
        assertEquals("Invalid arguments for bash: 'timeout' must be a positive number of seconds",
                text(call(bash, "{\"command\":\"true\",\"timeout\":0}")));
        assertEquals("Invalid arguments for bash: 'command' is required", text(call(bash, "{}")));
    }

    @Test
    void escapeSequencesAreStripped() throws Exception {
        ToolResult result = call(bash, "{\"command\":\"printf '\\\\033[31mred\\\\033[0m\\\\r\\\\n'\"}");
        assertEquals("red", text(result));
    }

    @Test
    void updatesCarryTheAccumulatedOutput() throws Exception {
        List<ToolOutput> updates = new CopyOnWriteArrayList<>();
        ToolResult result = call(bash, "{\"command\":\"echo a; sleep 0.3; echo b; sleep 0.3\"}",
                CancellationToken.none(), updates::add);
        assertEquals("a\nb", text(result));
        List<String> texts = updates.stream().map(ToolCalls::text).collect(Collectors.toList());
        assertTrue(texts.contains("a"), texts.toString());
        assertTrue(texts.contains("a\nb"), texts.toString());
    }

    /** {@code name=pid} pairs printed by a test command. */
    private static Map<String, Long> pids(String output) {
        Matcher m = Pattern.compile("(\\w+)=(\\d+)").matcher(output);
        Map<String, Long> pids = new HashMap<>();
        while (m.find()) {
            pids.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return pids;
    }

    /**
     * Alive and not a zombie: this container's init does not reap orphans, so a killed orphan stays
     * a zombie that {@link ProcessHandle#isAlive()} would still report.
     */
    static boolean running(long pid) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
            } catch (IOException e) {
                return false;
            }
        }
        return false;
    }
}
