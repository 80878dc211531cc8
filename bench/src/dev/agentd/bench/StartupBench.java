package dev.agentd.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Cold starts: spawns the daemon command {@code --runs} times (each in a fresh, empty agent and
 * working directory), writes {@code get_state} at once and times spawn → {@code ready} and spawn →
 * the {@code get_state} response (SPEC §10's startup measure). With {@code --rss-after-ms N} it
 * also waits N ms after the response and reads the idle VmRSS.
 *
 * <pre>java -cp … dev.agentd.bench.StartupBench --runs 10 --label "AppCDS" -- bin/agentd --no-session</pre>
 * Prints one markdown table row: label, runs, median/min/max of both times (and RSS).
 */
public final class StartupBench {
    private StartupBench() {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int runs = args.integer("runs", 10);
        int warmup = args.integer("warmup", 1);
        String label = args.get("label", String.join(" ", args.command));
        long rssAfterMs = Long.parseLong(args.get("rss-after-ms", "-1"));
        List<Double> ready = new ArrayList<>();
        List<Double> answered = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        for (int run = -warmup; run < runs; run++) {
            Path work = Files.createTempDirectory("agentd-bench-startup");
            try (Daemon daemon = Daemon.spawn(args.command, work, Map.of(),
                    "{\"type\":\"get_state\",\"id\":\"startup\"}")) {
                int readyAt = daemon.await(0, line -> line.is("ready"), 30_000);
                int responseAt = daemon.await(0, line -> line.isResponse("startup"), 30_000);
                if (run < 0) {
                    continue; // warm-up: file system caches, the JIT of this JVM
                }
                ready.add(Stats.ms(daemon.line(readyAt).nanos() - daemon.spawnedAt));
                answered.add(Stats.ms(daemon.line(responseAt).nanos() - daemon.spawnedAt));
                if (rssAfterMs >= 0) {
                    Thread.sleep(rssAfterMs);
                    rss.add(daemon.rssKb() / 1024.0);
                }
            } finally {
                Cleanup.delete(work);
            }
        }
        Stats r = new Stats(ready);
        Stats a = new Stats(answered);
        StringBuilder row = new StringBuilder("| " + label + " | " + a.count() + " | **" + Stats.f0(a.median())
                + "** | " + Stats.f0(a.min()) + " | " + Stats.f0(a.max()) + " | " + Stats.f0(r.median()) + " |");
        if (!rss.isEmpty()) {
            Stats m = new Stats(rss);
            row.append(" ").append(Stats.f(m.median())).append(" | ").append(Stats.f(m.max())).append(" |");
        }
        System.out.println(row);
        if (args.options.containsKey("verbose")) {
            System.err.println("get_state ms: " + answered);
            System.err.println("ready ms: " + ready);
        }
    }
}
