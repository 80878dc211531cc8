package dev.agentd.server.tools;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills a started command with everything it spawned. Three nets, because each misses something:
 * when the command was started under {@code setsid} its process group is signalled (this catches
 * background grandchildren already re-parented away from the shell); every descendant seen by
 * {@link ProcessHandle#descendants()} is signalled individually (this works without setsid); and,
 * on Linux, every process whose environment carries this command's marker variable is signalled
 * (this catches a double-forked daemon, {@code setsid -f cmd &}, which has left both the tree and
 * the group). Limits: a process that clears its environment or changes its user escapes the third
 * net, and a SIGKILLed daemon kills nothing.
 */
public final class ProcessTree {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessTree.class);
    private static final long POLL_MS = 10;
    /** The kill binary; without one the shell's builtin (which also accepts a negative pid) is used. */
    private static final String KILL = Stream.of("/usr/bin/kill", "/bin/kill")
            .filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
    /** Commands still running; killed if the daemon exits first, since setsid detaches them from us. */
    private static final Set<ProcessTree> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(ProcessTree::killNow),
                "agentd-command-reaper"));
    }

    /** The environment variable that marks every process a command starts (inherited by default). */
    public static final String MARKER_VARIABLE = "AGENTD_COMMAND_ID";
    /** A process's environment beyond this is not read: markers sit where the shell put them. */
    private static final int MAX_ENVIRON_BYTES = 256 * 1024;

    private final Process process;
    private final boolean ownGroup;
    /** {@code MARKER_VARIABLE=value} as it appears in /proc/PID/environ, or null for no scan. */
    private final byte[] markerEntry;
    private final Set<ProcessHandle> known = ConcurrentHashMap.newKeySet();

    /** @param ownGroup true when the process leads its own process group (started via setsid) */
    ProcessTree(Process process, boolean ownGroup) {
        this(process, ownGroup, null);
    }

    /** @param marker the value of {@link #MARKER_VARIABLE} in the command's environment, or null */
    public ProcessTree(Process process, boolean ownGroup, String marker) {
        this.process = process;
        this.ownGroup = ownGroup;
        this.markerEntry = marker == null ? null
                : (MARKER_VARIABLE + "=" + marker).getBytes(StandardCharsets.UTF_8);
    }

    /** The setsid binary (a command started through it leads its own process group), or null. */
    public static String setsid() {
        return BashExecutor.findSetsid();
    }

    /** A marker no other command of any agentd shares. */
    public static String newMarker() {
        return ProcessHandle.current().pid() + "-" + UUID.randomUUID();
    }

    /** Kills the tree if the JVM exits while it runs, until {@link #release()}. */
    public void track() {
        LIVE.add(this);
    }

    public void release() {
        LIVE.remove(this);
    }

    /** SIGTERM to all, then SIGKILL to whatever still runs after {@code grace}. */
    public void terminate(Duration grace) throws InterruptedException {
        snapshot(true);
        signalGroup("TERM");
        known.forEach(ProcessHandle::destroy);
        long until = System.nanoTime() + grace.toNanos();
        while (anyRunning() && System.nanoTime() < until) {
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
            snapshot();
        }
        // Always KILL the group: members that left the tree before any snapshot are invisible here.
        if (ownGroup || anyRunning()) {
            signalGroup("KILL");
            snapshot(true);
            known.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private void killNow() {
        try {
            snapshot(true);
            signalGroup("KILL");
            known.forEach(ProcessHandle::destroyForcibly);
        } catch (InterruptedException | RuntimeException e) {
            LOG.debug("could not kill command at exit: {}", e.getMessage());
        }
    }

    private void snapshot() {
        snapshot(false);
    }

    /** @param scanMarkers also look for marked processes (a /proc scan: not on every poll) */
    private void snapshot(boolean scanMarkers) {
        ProcessHandle root = process.toHandle();
        known.add(root);
        root.descendants().forEach(known::add);
        if (scanMarkers && markerEntry != null) {
            markedProcesses().forEach(known::add);
        }
    }

    /** Processes whose environment holds the marker (Linux /proc; elsewhere none are found). */
    private Stream<ProcessHandle> markedProcesses() {
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses()
                .filter(handle -> handle.pid() != self && carriesMarker(handle.pid()));
    }

    private boolean carriesMarker(long pid) {
        Path environ = Path.of("/proc", Long.toString(pid), "environ");
        try (InputStream in = Files.newInputStream(environ)) {
            return containsEntry(in.readNBytes(MAX_ENVIRON_BYTES), markerEntry);
        } catch (IOException | RuntimeException e) {
            return false; // gone, or not ours to read
        }
    }

    /** True when {@code entry} is one whole NUL-separated entry of {@code environ}. */
    static boolean containsEntry(byte[] environ, byte[] entry) {
        int start = 0;
        while (start < environ.length) {
            int end = start;
            while (end < environ.length && environ[end] != 0) {
                end++;
            }
            if (end - start == entry.length && Arrays.equals(environ, start, end, entry, 0, entry.length)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private boolean anyRunning() {
        return known.stream().anyMatch(ProcessTree::isRunning);
    }

    /**
     * Alive and not a zombie. Under an init that does not reap (some containers), killed orphans
     * linger as zombies, which {@link ProcessHandle#isAlive()} still reports as alive.
     */
    static boolean isRunning(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(handle.pid()), "stat");
        try {
            String text = Files.readString(stat, StandardCharsets.UTF_8);
            int close = text.lastIndexOf(')');
            return close < 0 || close + 2 >= text.length() || text.charAt(close + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return handle.isAlive();
        }
    }

    /** Signals the process group led by the process; a no-op group (already gone) is harmless. */
    private void signalGroup(String signal) throws InterruptedException {
        if (!ownGroup) {
            return;
        }
        String group = "-" + process.pid();
        ProcessBuilder builder = KILL != null
                ? new ProcessBuilder(KILL, "-" + signal, "--", group)
                : new ProcessBuilder("sh", "-c", "kill -" + signal + " " + group);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        try {
            Process kill = builder.start();
            if (!kill.waitFor(2, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            LOG.debug("could not signal process group {}: {}", group, e.getMessage());
        }
    }
}
