package dev.agentd.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cold starts: spawns each variant of the daemon command {@code --runs} times, round robin (so a
 * noisy minute on a shared machine hits every variant alike), each in a fresh, empty agent and
 * working directory; writes {@code get_state} at once and times spawn → {@code ready} and spawn →
 * the {@code get_state} response (SPEC §10's startup measure). With {@code --rss-after-ms N} it
 * also waits N ms after the response and reads the idle VmRSS.
 *
 * <pre>java -cp … dev.agentd.bench.StartupBench --runs 20 -- \
 *     "with archive" - bin/agentd ";;" "no archive" AGENTD_CDS=off bin/agentd</pre>
 * A variant is a label, its environment ({@code -} or {@code K=V,K=V}) and its command; variants
 * are separated by {@code ;;}. Prints one markdown table row per variant.
 */
public final class StartupBench {
    private StartupBench() {}

    private record Variant(String label, Map<String, String> env, List<String> command) {}

    /** What was measured for one variant. */
    private static final class Samples {
        final List<Double> ready = new ArrayList<>();
        final List<Double> answered = new ArrayList<>();
        final List<Double> rss = new ArrayList<>();
    }

    private static final Map<Variant, Samples> SAMPLES = new HashMap<>();

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int runs = args.integer("runs", 20);
        int warmup = args.integer("warmup", 1);
        long rssAfterMs = Long.parseLong(args.get("rss-after-ms", "-1"));
        List<Variant> variants = parse(args.command);
        for (int run = -warmup; run < runs; run++) {
            for (Variant variant : variants) {
                measure(variant, run >= 0, rssAfterMs);
            }
        }
        for (Variant variant : variants) {
            Samples s = SAMPLES.get(variant);
            Stats a = new Stats(s.answered);
            StringBuilder row = new StringBuilder("| " + variant.label() + " | " + a.count() + " | **"
                    + Stats.f0(a.median()) + "** | " + Stats.f0(a.min()) + " | " + Stats.f0(a.max()) + " | "
                    + Stats.f0(new Stats(s.ready).median()) + " |");
            if (!s.rss.isEmpty()) {
                Stats m = new Stats(s.rss);
                row.append(" ").append(Stats.f(m.median())).append(" | ").append(Stats.f(m.max())).append(" |");
            }
            System.out.println(row);
        }
    }

    private static void measure(Variant variant, boolean keep, long rssAfterMs) throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-startup");
        try (Daemon daemon = Daemon.spawn(variant.command(), work, variant.env(),
                "{\"type\":\"get_state\",\"id\":\"startup\"}")) {
            int readyAt = daemon.await(0, line -> line.is("ready"), 30_000);
            int responseAt = daemon.await(0, line -> line.isResponse("startup"), 30_000);
            if (!keep) {
                return; // warm-up round: file system caches, this JVM's JIT
            }
            Samples s = SAMPLES.computeIfAbsent(variant, v -> new Samples());
            s.ready.add(Stats.ms(daemon.line(readyAt).nanos() - daemon.spawnedAt));
            s.answered.add(Stats.ms(daemon.line(responseAt).nanos() - daemon.spawnedAt));
            if (rssAfterMs >= 0) {
                Thread.sleep(rssAfterMs);
                s.rss.add(daemon.rssKb() / 1024.0);
            }
        } finally {
            Cleanup.delete(work);
        }
    }

    /** label env command… [;; label env command…]… */
    private static List<Variant> parse(List<String> words) {
        List<Variant> variants = new ArrayList<>();
        int i = 0;
        while (i < words.size()) {
            String label = words.get(i++);
            String envSpec = words.get(i++);
            Map<String, String> env = new HashMap<>();
            if (!envSpec.equals("-")) {
                for (String pair : envSpec.split(",")) {
                    int eq = pair.indexOf('=');
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            List<String> command = new ArrayList<>();
            while (i < words.size() && !words.get(i).equals(";;")) {
                command.add(words.get(i++));
            }
            i++; // the separator
            if (command.isEmpty()) {
                throw new IllegalArgumentException("variant '" + label + "' has no command");
            }
            variants.add(new Variant(label, Map.copyOf(env), List.copyOf(command)));
        }
        return variants;
    }
}
