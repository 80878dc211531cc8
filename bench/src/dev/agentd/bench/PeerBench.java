package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * agentd and pi side by side (issue 18), on this machine, in this run: cold start-up (spawn →
 * the answer to a first {@code get_state}, median of {@code --runs}, the two taking turns) and one
 * long reply from the same local {@link SseServer} ({@code --deltas}), timed prompt → {@code
 * agent_end} with a reader that parses every stdout line as JSON, with the stdout bytes counted.
 * agentd runs in full and delta update mode; pi has only full updates.
 *
 * <pre>java -cp … dev.agentd.bench.PeerBench --runs 10 --deltas 5000 -- bin/agentd ";;" …/pi</pre>
 * Prints markdown tables, ratios as pi / agentd (above 1: agentd is faster or smaller).
 */
public final class PeerBench {
    private PeerBench() {}

    private record Reply(double coldMs, double warmMs, long bytes, long updates) {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int runs = args.integer("runs", 10);
        int deltas = args.integer("deltas", 5000);
        int prompts = args.integer("prompts", 3);
        int split = args.command.indexOf(";;");
        List<String> agentd = args.command.subList(0, split);
        List<String> pi = args.command.subList(split + 1, args.command.size());
        Daemon.parseEveryLine = true;

        List<Double> agentdStart = new ArrayList<>();
        List<Double> piStart = new ArrayList<>();
        for (int run = -1; run < runs; run++) { // one warm-up round: file system caches
            double a = startup(agentd);
            double p = startup(with(pi, "--mode", "rpc", "--no-session"));
            if (run >= 0) {
                agentdStart.add(a);
                piStart.add(p);
            }
        }
        Stats a = new Stats(agentdStart);
        Stats p = new Stats(piStart);
        System.out.println("### Start-up: spawn → answer to the first get_state (ms), " + runs + " runs each");
        System.out.println();
        System.out.println("| | median | min | max |");
        System.out.println("|---|---|---|---|");
        System.out.println("| agentd | **" + Stats.f0(a.median()) + "** | " + Stats.f0(a.min()) + " | " + Stats.f0(a.max()) + " |");
        System.out.println("| pi 0.73.1 | **" + Stats.f0(p.median()) + "** | " + Stats.f0(p.min()) + " | " + Stats.f0(p.max()) + " |");
        System.out.println("| ratio pi / agentd | **" + ratio(p.median(), a.median()) + "** | | |");
        System.out.println();

        Reply full = reply(with(agentd, "--no-session", "--updates", "full"), deltas, prompts);
        Reply delta = reply(with(agentd, "--no-session", "--updates", "delta"), deltas, prompts);
        Reply peer = reply(with(pi, "--mode", "rpc", "--no-session"), deltas, prompts);
        System.out.println("### One reply of " + deltas + " deltas: prompt → agent_end, every line parsed as JSON");
        System.out.println();
        System.out.println("| | first reply, cold (ms) | warm replies, median (ms) | stdout bytes per reply | message_update lines"
                + " | time ratio pi / agentd (warm) | bytes ratio pi / agentd |");
        System.out.println("|---|---|---|---|---|---|---|");
        row("agentd, full updates", full, peer);
        row("agentd, delta updates", delta, peer);
        row("pi 0.73.1 (full updates)", peer, peer);
    }

    private static List<String> with(List<String> command, String... extra) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(extra));
        return all;
    }

    private static Map<String, String> env(Path work) {
        // pi's agent directory; PI_OFFLINE and the skipped version check keep it off the network.
        return Map.of("PI_CODING_AGENT_DIR", work.resolve("agent").toString(), "PI_OFFLINE", "1",
                "PI_SKIP_VERSION_CHECK", "1", "PI_TELEMETRY", "0");
    }

    private static double startup(List<String> command) throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-peer");
        try (Daemon daemon = Daemon.spawn(command, work, env(work), "{\"type\":\"get_state\",\"id\":\"startup\"}")) {
            int at = daemon.await(0, line -> line.isResponse("startup"), 60_000);
            return Stats.ms(daemon.line(at).nanos() - daemon.spawnedAt);
        } finally {
            Cleanup.delete(work);
        }
    }

    private static Reply reply(List<String> base, int deltas, int prompts) throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-peer");
        List<Double> times = new ArrayList<>();
        long bytes = 0;
        long updates = 0;
        try (SseServer server = new SseServer()) {
            server.writeModelsJson(Files.createDirectories(work.resolve("agent")));
            List<String> command = with(base, "--model", "bench/" + SseServer.MODEL);
            try (Daemon daemon = Daemon.spawn(command, work, env(work), "{\"type\":\"get_state\",\"id\":\"s\"}")) {
                int seen = daemon.await(0, line -> line.isResponse("s"), 60_000) + 1;
                for (int i = 0; i < prompts; i++) {
                    server.enqueue(SseServer.Reply.stream(deltas));
                    daemon.resetUpdates();
                    long before = daemon.stdoutBytes();
                    long sent = System.nanoTime();
                    daemon.send("{\"type\":\"prompt\",\"id\":\"p" + i + "\",\"message\":\"count to " + deltas + "\"}");
                    int end = daemon.await(seen, line -> line.is("agent_end"), 600_000);
                    times.add(Stats.ms(daemon.line(end).nanos() - sent));
                    check(daemon.line(end).json(), deltas);
                    bytes = daemon.stdoutBytes() - before;
                    updates = daemon.updates();
                    seen = end + 1;
                }
            }
        } finally {
            Cleanup.delete(work);
        }
        return new Reply(times.get(0), new Stats(times.subList(Math.min(1, times.size() - 1), times.size())).median(),
                bytes, updates);
    }

    private static void row(String label, Reply r, Reply peer) {
        System.out.println("| " + label + " | " + Stats.f0(r.coldMs()) + " | **" + Stats.f0(r.warmMs()) + "** | "
                + String.format(Locale.ROOT, "%,d", r.bytes()) + " | " + r.updates() + " | "
                + ratio(peer.warmMs(), r.warmMs()) + " | " + ratio(peer.bytes(), r.bytes()) + " |");
    }

    private static String ratio(double peer, double ours) {
        return String.format(Locale.ROOT, "%.1f×", peer / ours);
    }

    /** The reply must be complete: the last message's text is n deltas of five characters. */
    private static void check(JsonNode agentEnd, int deltas) {
        JsonNode messages = agentEnd.path("messages");
        JsonNode reply = messages.get(messages.size() - 1);
        String text = reply.path("content").path(0).path("text").asText();
        if (text.length() != deltas * 5) {
            throw new IllegalStateException("incomplete reply: " + text.length() + " chars, stopReason "
                    + reply.path("stopReason"));
        }
    }
}
