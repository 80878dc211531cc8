package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A long reply end to end: the local {@link SseServer} streams {@code n} deltas, the daemon (a
 * models.json provider pointing at it) turns them into events, and this client times prompt sent →
 * {@code agent_end} received and counts the stdout bytes in between, per update mode and reply
 * length. Each daemon serves {@code --prompts} prompts: the first is cold (fresh JVM), the rest warm.
 *
 * <pre>java -cp … dev.agentd.bench.StreamBench --deltas 1000,5000 --modes delta,full -- bin/agentd</pre>
 * Prints one markdown table row per mode and length.
 */
public final class StreamBench {
    private StreamBench() {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int prompts = args.integer("prompts", 4);
        for (String mode : args.get("modes", "delta,full").split(",")) {
            for (String n : args.get("deltas", "5000").split(",")) {
                run(args.command, mode, Integer.parseInt(n), prompts);
            }
        }
    }

    private static void run(List<String> daemonCommand, String mode, int deltas, int prompts) throws Exception {
        Path work = Files.createTempDirectory("agentd-bench-stream");
        List<Double> times = new ArrayList<>();
        List<Long> bytes = new ArrayList<>();
        long updates = 0;
        try (SseServer server = new SseServer()) {
            server.writeModelsJson(Files.createDirectories(work.resolve("agent")));
            List<String> command = new ArrayList<>(daemonCommand);
            command.addAll(List.of("--no-session", "--model", "bench/" + SseServer.MODEL, "--updates", mode));
            try (Daemon daemon = Daemon.spawn(command, work, Map.of(), null)) {
                int seen = daemon.await(0, line -> line.is("ready"), 60_000);
                for (int p = 0; p < prompts; p++) {
                    server.enqueue(SseServer.Reply.stream(deltas));
                    daemon.resetUpdates();
                    long bytesBefore = daemon.stdoutBytes();
                    long sent = System.nanoTime();
                    daemon.send("{\"type\":\"prompt\",\"id\":\"p" + p + "\",\"message\":\"count to " + deltas + "\"}");
                    int end = daemon.await(seen, line -> line.is("agent_end"), 300_000);
                    times.add(Stats.ms(daemon.line(end).nanos() - sent));
                    bytes.add(daemon.stdoutBytes() - bytesBefore);
                    updates = daemon.updates();
                    if (System.getenv("BENCH_DEBUG") != null) { // where the time goes, per prompt
                        List<Long> arrivals = server.arrivals();
                        System.err.printf("%s %d #%d: request +%.0f ms, first update +%.0f, last update +%.0f,"
                                + " agent_end +%.0f%n", mode, deltas, p, Stats.ms(arrivals.get(arrivals.size() - 1) - sent),
                                Stats.ms(daemon.firstUpdate() - sent), Stats.ms(daemon.lastUpdate() - sent),
                                Stats.ms(daemon.line(end).nanos() - sent));
                    }
                    check(daemon.line(end).json(), deltas);
                    seen = end + 1;
                }
            }
        } finally {
            Cleanup.delete(work);
        }
        Stats warm = new Stats(times.subList(Math.min(1, times.size() - 1), times.size()));
        long perReply = bytes.get(bytes.size() - 1);
        System.out.println("| " + mode + " | " + deltas + " | " + Stats.f0(times.get(0)) + " | **"
                + Stats.f0(warm.median()) + "** | " + String.format(java.util.Locale.ROOT, "%,d", perReply) + " | "
                + String.format(java.util.Locale.ROOT, "%.0f", perReply / (double) deltas) + " | " + updates + " |");
    }

    /** The reply must be complete: n deltas of five characters, and a successful stop. */
    private static void check(JsonNode agentEnd, int deltas) {
        JsonNode messages = agentEnd.path("messages");
        JsonNode reply = messages.get(messages.size() - 1);
        String text = reply.path("content").path(0).path("text").asText();
        if (text.length() != deltas * 5 || !"stop".equals(reply.path("stopReason").asText())) {
            throw new IllegalStateException("incomplete reply: " + text.length() + " chars, stopReason "
                    + reply.path("stopReason"));
        }
    }
}
