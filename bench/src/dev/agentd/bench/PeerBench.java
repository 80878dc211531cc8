package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * agentd and its peers side by side (issues 18 and 24), on this machine, in this run: cold start-up
 * (spawn → the answer to a first {@code get_state}, median of {@code --runs}, all taking turns, with a
 * JVM printing "hi" as the floor), and one long reply from the same local {@link SseServer}
 * ({@code --deltas}), timed prompt → {@code agent_end} by a reader that parses every stdout line as
 * JSON, with the stdout bytes counted and the daemon's peak RSS (VmHWM) read after its replies. Each
 * side streams in its default update form, found on the wire rather than assumed; agentd also runs in
 * its other form ({@code --updates}). The floor of the reply is {@link HttpFloor}.
 *
 * <pre>java -cp … dev.agentd.bench.PeerBench --runs 10 --deltas 5000 -- \
 *     agentd bin/agentd --no-session ";;" "pi 1.6.0" node22 …/cli.js --mode rpc --no-session ";;" …</pre>
 * Each peer is a label and an RPC command; the first is agentd, the second the reference the ratios
 * and targets compare with. Prints markdown tables ({@link PeerTables}).
 */
public final class PeerBench {
    private PeerBench() {}

    /** One side: a label and the command that starts it in RPC mode. */
    record Peer(String label, List<String> command) {}

    /** One side's reply: the update form seen, times, bytes and updates of the last reply, peak RSS. */
    record Reply(String label, String form, double coldMs, double warmMs, long bytes, long updates, long peakRssKb) {}

    /** One side's start-up samples (ms). */
    record Startup(String label, Stats stats) {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int runs = args.integer("runs", 10);
        int deltas = args.integer("deltas", 5000);
        int prompts = args.integer("prompts", 3);
        List<Peer> peers = parse(args.command);
        Daemon.parseEveryLine = true;

        List<Startup> startups = startups(peers, runs);
        PeerTables.startup(startups, runs);

        Peer agentd = peers.get(0);
        List<Reply> replies = new ArrayList<>();
        Reply ours = reply(agentd.label() + " (default)", agentd.command(), deltas, prompts);
        replies.add(ours);
        String other = ours.form().equals("delta") ? "full" : "delta";
        replies.add(reply(agentd.label() + " --updates " + other, with(agentd.command(), "--updates", other), deltas,
                prompts));
        for (Peer peer : peers.subList(1, peers.size())) {
            replies.add(reply(peer.label() + " (default)", peer.command(), deltas, prompts));
        }
        Reply floor = floor(deltas, prompts);
        PeerTables.reply(replies, floor, deltas);
        PeerTables.targets(startups, replies, floor);
    }

    /** label command… [;; label command…]… */
    private static List<Peer> parse(List<String> words) {
        List<Peer> peers = new ArrayList<>();
        List<String> group = new ArrayList<>();
        for (String word : with(words, ";;")) {
            if (!word.equals(";;")) {
                group.add(word);
                continue;
            }
            if (group.size() < 2) {
                throw new IllegalArgumentException("a peer needs a label and a command: " + group);
            }
            peers.add(new Peer(group.get(0), List.copyOf(group.subList(1, group.size()))));
            group.clear();
        }
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("no peers: -- agentd <command> [;; <label> <command>]...");
        }
        return peers;
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

    /** Every peer and the JVM floor, round robin, one warm-up round first (file system caches). */
    private static List<Startup> startups(List<Peer> peers, int runs) throws Exception {
        List<String> hello = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Hello.class.getName());
        List<List<Double>> samples = new ArrayList<>();
        for (int i = 0; i <= peers.size(); i++) {
            samples.add(new ArrayList<>());
        }
        for (int run = -1; run < runs; run++) {
            for (int i = 0; i < peers.size(); i++) {
                double ms = startup(peers.get(i).command(), "{\"type\":\"get_state\",\"id\":\"startup\"}",
                        line -> line.isResponse("startup"));
                if (run >= 0) {
                    samples.get(i).add(ms);
                }
            }
            double ms = startup(hello, null, line -> line.text().equals("\"hi\""));
            if (run >= 0) {
                samples.get(peers.size()).add(ms);
            }
        }
        List<Startup> startups = new ArrayList<>();
        for (int i = 0; i < peers.size(); i++) {
            startups.add(new Startup(peers.get(i).label(), new Stats(samples.get(i))));
        }
        startups.add(new Startup("JVM printing \"hi\" (floor)", new Stats(samples.get(peers.size()))));
        return startups;
    }

    private static double startup(List<String> command, String firstLine, Predicate<Daemon.Line> answered)
            throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-peer");
        try (Daemon daemon = Daemon.spawn(command, work, env(work), firstLine)) {
            int at = daemon.await(0, answered, 60_000);
            return Stats.ms(daemon.line(at).nanos() - daemon.spawnedAt);
        } finally {
            Cleanup.delete(work);
        }
    }

    private static Reply reply(String label, List<String> base, int deltas, int prompts) throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-peer");
        List<Double> times = new ArrayList<>();
        long bytes = 0;
        long updates = 0;
        String form = "none";
        long peak;
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
                    check(label, daemon.line(end).json(), deltas);
                    bytes = daemon.stdoutBytes() - before;
                    updates = daemon.updates();
                    form = daemon.updateForm();
                    seen = end + 1;
                }
                peak = daemon.peakRssKb(); // before EOF: the high-water mark of a daemon that served the replies
            }
        } finally {
            Cleanup.delete(work);
        }
        return new Reply(label, form, times.get(0), warm(times), bytes, updates, peak);
    }

    /**
     * The same reply read by the bench itself over HTTP: the floor (no daemon, so no RSS). At least nine
     * reads: they are cheap, and the warm median of two is noise on a shared machine.
     */
    private static Reply floor(int deltas, int prompts) throws Exception {
        List<Double> times = new ArrayList<>();
        long bytes = 0;
        try (SseServer server = new SseServer()) {
            for (int i = 0; i < Math.max(prompts, 9); i++) {
                HttpFloor.Read read = HttpFloor.read(server, deltas);
                times.add(read.ms());
                bytes = read.bytes();
            }
        }
        return new Reply("floor: the bench reads the provider over HTTP", "SSE", times.get(0), warm(times), bytes,
                deltas, -1);
    }

    /** The median of the replies after the first (the first is cold), or the only one. */
    private static double warm(List<Double> times) {
        return new Stats(times.subList(Math.min(1, times.size() - 1), times.size())).median();
    }

    /** The reply must be complete: the last message's text is n deltas of five characters. */
    private static void check(String label, JsonNode agentEnd, int deltas) {
        JsonNode messages = agentEnd.path("messages");
        JsonNode reply = messages.get(messages.size() - 1);
        String text = reply.path("content").path(0).path("text").asText();
        if (text.length() != deltas * 5) {
            throw new IllegalStateException(label + ": incomplete reply: " + text.length() + " chars, stopReason "
                    + reply.path("stopReason"));
        }
    }
}
