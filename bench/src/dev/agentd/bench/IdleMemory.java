package dev.agentd.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What an idle ACP session costs (see {@link AcpSessionsBench}): live heap after a full GC, VmRSS
 * and threads, with 0 extra sessions open, then after opening more, then after each answered a
 * short prompt. Prints one table row per state.
 */
final class IdleMemory {
    private IdleMemory() {}

    /** Live heap, resident set and thread count at one moment. */
    record Sample(long heapBytes, long rssKb, long threads) {}

    static void run(List<String> daemonCommand, List<Integer> counts) throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-acp-idle");
        int most = counts.stream().mapToInt(Integer::intValue).max().orElse(0);
        // Short replies, unpaced: one for the warm-up, one for each session afterwards.
        Path script = AcpSessionsBench.script(work, most + 1, "done", 0);
        try (Daemon daemon = Daemon.spawn(AcpSessionsBench.acpCommand(daemonCommand, work, script), work,
                Map.of(), null)) {
            AcpClient client = new AcpClient(daemon);
            client.initialize();
            String first = client.newSession("warm", work);
            client.call("warm-prompt", "session/prompt", AcpClient.prompt(first, "warm up"));
            Sample base = sample(daemon);
            row("1 (baseline: one used session)", base, null, 0);
            List<String> ids = new ArrayList<>();
            for (int count : counts) {
                while (ids.size() < count) {
                    ids.add(client.newSession("new" + ids.size(), work));
                }
                row("1 + " + count + " new", sample(daemon), base, count);
            }
            List<String> prompts = new ArrayList<>();
            for (int s = 0; s < ids.size(); s++) {
                client.send("p" + s, "session/prompt", AcpClient.prompt(ids.get(s), "hello"));
                prompts.add("p" + s);
            }
            client.awaitResults(prompts, 120_000);
            row("1 + " + ids.size() + ", each after one short reply", sample(daemon), base, ids.size());
        } finally {
            Cleanup.delete(work);
        }
    }

    private static void row(String label, Sample now, Sample base, int added) {
        String heapPer = base == null ? "—" : Stats.f0((now.heapBytes() - base.heapBytes()) / 1024.0 / added);
        String rssPer = base == null ? "—" : Stats.f0((now.rssKb() - base.rssKb()) / (double) added);
        System.out.println("| " + label + " | " + Stats.f(now.heapBytes() / 1048576.0) + " | " + heapPer + " | "
                + Stats.f(now.rssKb() / 1024.0) + " | " + rssPer + " | " + now.threads() + " |");
    }

    /** After a moment's rest: the histogram's full GC, then RSS and threads. */
    static Sample sample(Daemon daemon) throws IOException, InterruptedException {
        Thread.sleep(500);
        long heap = liveHeap(daemon.process.pid());
        return new Sample(heap, daemon.rssKb(), threads(daemon.process.pid()));
    }

    /** Total bytes of {@code jcmd PID GC.class_histogram} (live objects: it runs a full GC first). */
    static long liveHeap(long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IllegalStateException("jcmd failed: " + out);
        }
        for (String line : out.split("\n")) {
            if (line.startsWith("Total")) {
                String[] fields = line.trim().split("\\s+");
                return Long.parseLong(fields[2]);
            }
        }
        throw new IllegalStateException("no Total in jcmd's histogram: " + out);
    }

    static long threads(long pid) throws IOException {
        for (String row : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (row.startsWith("Threads:")) {
                return Long.parseLong(row.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
