package dev.agentd.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Many ACP sessions in one {@code agentd --mode acp} process (issue 26 item 6), streaming from the
 * faux model, and what an idle session costs.
 *
 * <p><b>Interference.</b> Every reply is {@code --chunks} chunks of twelve characters, each naming
 * its index ({@code k0000000042 }), paced {@code --chunk-delay-ms} apart by the faux model. One
 * session alone first answers {@code --solo} prompts: for chunk {@code i}, {@code solo(i)} is the
 * median of (arrival − prompt written) and {@code soloGap(i)} the median gap to chunk {@code i-1}.
 * Then all sessions are prompted at once, {@code --rounds} times. For every chunk of every session:
 * <ul>
 *   <li><b>lateness</b> = (arrival − that session's prompt written) − solo(i): how much later the
 *       chunk reached the editor than it would have with its session alone (the target's measure);
 *   <li><b>stall</b> = (arrival − arrival of chunk i-1) − soloGap(i): how much longer the editor
 *       waited for this chunk than alone; it does not accumulate over the reply as lateness does.
 * </ul>
 * A warm-up round of all sessions precedes the solo prompts, so both sides run warm code.
 *
 * <p><b>Idle memory.</b> A second daemon: one session answers a prompt (code loaded), then live heap
 * (the total of {@code jcmd GC.class_histogram}, which runs a full GC first), VmRSS and threads are
 * read with 0 extra sessions, after opening each count of {@code --idle}, and after each of those
 * sessions answered one short prompt; per session = difference / sessions.
 *
 * <pre>java -cp … dev.agentd.bench.AcpSessionsBench --sessions 10,50 --idle 50,200 -- bin/agentd</pre>
 */
public final class AcpSessionsBench {
    private AcpSessionsBench() {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int chunks = args.integer("chunks", 100);
        int delay = args.integer("chunk-delay-ms", 15);
        int rounds = args.integer("rounds", 3);
        int solo = args.integer("solo", 5);
        String what = args.get("only", "both");
        if (!what.equals("memory")) {
            System.out.println("| sessions | reply | turn alone, median (ms) | turn among all, median / max (ms)"
                    + " | lateness p50 / p99 / max (ms) | stall p50 / p99 / max (ms) | daemon CPU per chunk (µs)"
                    + " | p99 lateness ≤ 100 ms | load (1 min) at start |");
            System.out.println("|---|---|---|---|---|---|---|---|---|");
            for (String n : args.get("sessions", "50").split(",")) {
                stream(args.command, Integer.parseInt(n), chunks, delay, rounds, solo);
            }
        }
        if (!what.equals("stream")) {
            System.out.println();
            System.out.println("| sessions open | live heap after full GC (MB) | per session (kB) | VmRSS (MB)"
                    + " | per session (kB) | threads |");
            System.out.println("|---|---|---|---|---|---|");
            List<Integer> idle = new ArrayList<>();
            for (String n : args.get("idle", "50,200").split(",")) {
                idle.add(Integer.parseInt(n));
            }
            IdleMemory.run(args.command, idle);
        }
    }

    /** The reply text: chunk {@code i} is exactly {@code k<i, ten digits><space>} (the faux model's 12 characters). */
    static String reply(int chunks) {
        StringBuilder text = new StringBuilder(chunks * 12);
        for (int i = 0; i < chunks; i++) {
            text.append(String.format(Locale.ROOT, "k%010d ", i));
        }
        return text.toString();
    }

    /** Writes a faux script of {@code steps} copies of {@code text}, paced {@code chunkDelayMs}. */
    static Path script(Path work, int steps, String text, int chunkDelayMs) throws IOException {
        ArrayNode script = Daemon.JSON.createArrayNode();
        for (int i = 0; i < steps; i++) {
            script.addObject().put("text", text).put("chunkDelayMs", chunkDelayMs);
        }
        return Files.writeString(work.resolve("script.json"), script.toString());
    }

    static List<String> acpCommand(List<String> daemon, Path work, Path script) {
        List<String> command = new ArrayList<>(daemon);
        command.addAll(List.of("--mode", "acp", "--model", "faux/faux-1", "--faux-script", script.toString(),
                "--session-dir", work.resolve("sessions").toString()));
        return command;
    }

    private static void stream(List<String> daemonCommand, int n, int chunks, int delay, int rounds, int solo)
            throws Exception {
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        Path work = Files.createTempDirectory("agentd-bench-acp");
        String text = reply(chunks);
        Path script = script(work, n * (rounds + 1) + solo, text, delay);
        try (Daemon daemon = Daemon.spawn(acpCommand(daemonCommand, work, script), work, Map.of(), null)) {
            AcpClient client = new AcpClient(daemon);
            client.initialize();
            List<String> ids = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                ids.add(client.newSession("new" + s, work));
            }
            round(client, ids, "warm", chunks); // code warm for both sides of the comparison
            List<Map<String, long[]>> alone = new ArrayList<>();
            for (int r = 0; r < solo; r++) {
                alone.add(round(client, ids.subList(0, 1), "solo" + r, chunks));
            }
            long[] soloAt = new long[chunks];
            long[] soloGap = new long[chunks];
            for (int i = 0; i < chunks; i++) {
                List<Double> at = new ArrayList<>();
                List<Double> gap = new ArrayList<>();
                for (Map<String, long[]> one : alone) {
                    long[] times = one.get(ids.get(0));
                    at.add((double) times[i + 1] - times[0]);
                    gap.add((double) times[i + 1] - times[i]);
                }
                soloAt[i] = (long) new Stats(at).median();
                soloGap[i] = (long) new Stats(gap).median();
            }
            List<Double> lateness = new ArrayList<>();
            List<Double> stalls = new ArrayList<>();
            List<Double> turns = new ArrayList<>();
            long cpuBefore = cpuMs(daemon);
            for (int r = 0; r < rounds; r++) {
                Map<String, long[]> all = round(client, ids, "all" + r, chunks);
                long start = all.values().stream().mapToLong(t -> t[0]).min().orElse(0);
                for (long[] times : all.values()) {
                    for (int i = 0; i < chunks; i++) {
                        lateness.add(Stats.ms(times[i + 1] - times[0] - soloAt[i]));
                        stalls.add(Stats.ms(times[i + 1] - times[i] - soloGap[i]));
                        if (System.getenv("BENCH_DEBUG") != null && times[i + 1] - times[i] - soloGap[i] > 30_000_000L) {
                            System.err.printf("round %d stall %.1f ms ending %.1f ms after the first prompt (chunk %d)%n",
                                    r, Stats.ms(times[i + 1] - times[i] - soloGap[i]), Stats.ms(times[i + 1] - start), i);
                        }
                    }
                    turns.add(Stats.ms(times[chunks] - times[0]));
                }
            }
            if (System.getenv("BENCH_DEBUG") != null) { // lateness at the first, middle and last chunk
                for (int i : new int[] {0, chunks / 2, chunks - 1}) {
                    List<Double> at = new ArrayList<>();
                    for (int k = i; k < lateness.size(); k += chunks) {
                        at.add(lateness.get(k));
                    }
                    Stats one = new Stats(at);
                    System.err.printf("n=%d chunk %d: solo %.1f ms, lateness p50 %.1f p99 %.1f max %.1f%n", n, i,
                            Stats.ms(soloAt[i]), one.median(), one.percentile(99), one.max());
                }
            }
            double cpuPerChunk = (cpuMs(daemon) - cpuBefore) * 1000.0 / (rounds * (long) n * chunks);
            Stats late = new Stats(lateness);
            Stats stall = new Stats(stalls);
            Stats turn = new Stats(turns);
            System.out.println("| " + n + " | " + chunks + " × " + delay + " ms | " + Stats.f0(Stats.ms(soloAt[chunks - 1]))
                    + " | " + Stats.f0(turn.median()) + " / " + Stats.f0(turn.max()) + " | " + Stats.f(late.median())
                    + " / **" + Stats.f(late.percentile(99)) + "** / " + Stats.f(late.max()) + " | "
                    + Stats.f(stall.median()) + " / " + Stats.f(stall.percentile(99)) + " / " + Stats.f(stall.max())
                    + " | " + Stats.f0(cpuPerChunk) + " | " + (late.percentile(99) <= 100 ? "met" : "**not met**") + " | " + load + " |");
        } finally {
            Cleanup.delete(work);
        }
    }

    /**
     * Prompts every session in {@code ids} at once and waits for all answers; per session: the
     * time its prompt was written, then the arrival of each chunk by index.
     */
    private static Map<String, long[]> round(AcpClient client, List<String> ids, String tag, int chunks)
            throws Exception {
        int from = client.mark();
        Map<String, long[]> times = new HashMap<>();
        List<String> requests = new ArrayList<>();
        for (int s = 0; s < ids.size(); s++) {
            long[] row = new long[chunks + 1];
            String request = tag + "-" + s;
            row[0] = client.send(request, "session/prompt", AcpClient.prompt(ids.get(s), "count for " + tag));
            times.put(ids.get(s), row);
            requests.add(request);
        }
        List<Daemon.Line> answers = client.awaitResults(requests, 300_000);
        for (Daemon.Line answer : answers) {
            String stop = answer.json().path("result").path("stopReason").asText();
            if (!stop.equals("end_turn")) {
                throw new IllegalStateException(tag + ": stopReason " + stop);
            }
        }
        int[] seen = new int[ids.size()];
        Map<String, Integer> index = new HashMap<>();
        for (int s = 0; s < ids.size(); s++) {
            index.put(ids.get(s), s);
        }
        for (AcpClient.Chunk chunk : client.chunks(from, client.mark())) {
            long[] row = times.get(chunk.sessionId());
            if (row == null) {
                continue;
            }
            // A chunk names its index; should updates ever merge, each index keeps its line's arrival.
            for (String token : chunk.text().trim().split(" ")) {
                if (!token.startsWith("k")) {
                    throw new IllegalStateException(tag + ": unexpected reply text " + chunk.text()
                            + " (the faux script ran out?)");
                }
                int i = Integer.parseInt(token.substring(1));
                if (row[i + 1] == 0) {
                    row[i + 1] = chunk.nanos();
                    seen[index.get(chunk.sessionId())]++;
                }
            }
        }
        for (int s = 0; s < ids.size(); s++) {
            if (seen[s] != chunks) {
                throw new IllegalStateException(tag + ": session " + s + " got " + seen[s] + " of " + chunks + " chunks");
            }
        }
        return times;
    }

    /** User + system CPU time of the process so far (Linux), in ms. */
    static long cpuMs(Daemon daemon) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(daemon.process.pid()), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10; // fields 14 and 15, 100 Hz ticks
    }
}
