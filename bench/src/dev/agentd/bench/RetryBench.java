package dev.agentd.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Retry timing (SPEC §10) against the local {@link SseServer}, which timestamps every request:
 * <ul>
 *   <li>backoff accuracy: each trial answers 503, 503, then a reply. The sleep itself is the
 *       time from {@code auto_retry_start} to the retried run's {@code agent_start} (both seen
 *       by the client) minus the announced {@code delayMs}; end to end, the gap between two
 *       consecutive requests at the server, and from {@code auto_retry_start} to the next
 *       request, also hold the error handling and the building of the new request;</li>
 *   <li>{@code abort_retry}: during a 10 s backoff, time from sending it to receiving
 *       {@code auto_retry_end} and to its response.</li>
 * </ul>
 * Prints markdown table rows.
 */
public final class RetryBench {
    private RetryBench() {}

    public static void main(String[] argv) throws Exception {
        Stats.Args args = new Stats.Args(argv);
        int trials = args.integer("trials", 8);
        int baseDelay = args.integer("base-delay-ms", 200);
        Path work = Files.createTempDirectory("agentd-bench-retry");
        try (SseServer server = new SseServer()) {
            Path agent = Files.createDirectories(work.resolve("agent"));
            server.writeModelsJson(agent);
            Files.writeString(agent.resolve("settings.json"),
                    "{\"retry\":{\"baseDelayMs\":" + baseDelay + ",\"maxRetries\":3}}");
            List<String> command = new ArrayList<>(args.command);
            command.addAll(List.of("--no-session", "--model", "bench/" + SseServer.MODEL));
            try (Daemon daemon = Daemon.spawn(command, work, Map.of(), null)) {
                int seen = daemon.await(0, line -> line.is("ready"), 60_000);
                backoff(daemon, server, trials, seen);
                abortRetry(daemon, server, trials);
            }
        } finally {
            Cleanup.delete(work);
        }
    }

    private static void backoff(Daemon daemon, SseServer server, int trials, int seen) throws Exception {
        List<Double> sleep = new ArrayList<>();
        List<Double> requestGap = new ArrayList<>();
        List<Double> fromAnnouncement = new ArrayList<>();
        for (int t = 0; t < trials; t++) {
            int before = server.arrivals().size();
            server.enqueue(SseServer.Reply.error(503), SseServer.Reply.error(503), SseServer.Reply.stream(10));
            daemon.send("{\"type\":\"prompt\",\"id\":\"r" + t + "\",\"message\":\"retry me\"}");
            int end = daemon.await(seen, line -> line.is("agent_end") && !line.json().path("willRetry").asBoolean(),
                    60_000);
            List<Long> arrivals = server.arrivals().subList(before, before + 3);
            int from = seen;
            for (int k = 0; k < 2; k++) {
                int start = daemon.await(from, line -> line.is("auto_retry_start"), 1000);
                long delay = daemon.line(start).json().path("delayMs").asLong();
                int resumed = daemon.await(start, line -> line.is("agent_start"), 1000);
                sleep.add(Stats.ms(daemon.line(resumed).nanos() - daemon.line(start).nanos()) - delay);
                requestGap.add(Stats.ms(arrivals.get(k + 1) - arrivals.get(k)) - delay);
                fromAnnouncement.add(Stats.ms(arrivals.get(k + 1) - daemon.line(start).nanos()) - delay);
                from = start + 1;
            }
            seen = end + 1;
        }
        if (System.getenv("BENCH_DEBUG") != null) {
            System.err.println("sleep lateness per retry (ms): " + sleep);
            System.err.println("request gap lateness per retry (ms): " + requestGap);
        }
        row("backoff sleep: auto_retry_start → agent_start of the retry, − delayMs", sleep, "≤ 20 ms");
        row("backoff end to end: request gap − delayMs", requestGap, "≤ 20 ms (sleep only)");
        row("backoff end to end: auto_retry_start → next request, − delayMs", fromAnnouncement,
                "≤ 20 ms (sleep only)");
    }

    private static void abortRetry(Daemon daemon, SseServer server, int trials) throws Exception {
        daemon.send("{\"type\":\"set_retry_settings\",\"id\":\"slow\",\"baseDelayMs\":10000}");
        daemon.await(0, line -> line.isResponse("slow"), 10_000);
        List<Double> toEnd = new ArrayList<>();
        List<Double> toResponse = new ArrayList<>();
        int seen = daemon.size();
        for (int t = 0; t < trials; t++) {
            server.enqueue(SseServer.Reply.error(503));
            daemon.send("{\"type\":\"prompt\",\"id\":\"a" + t + "\",\"message\":\"abort my retry\"}");
            int start = daemon.await(seen, line -> line.is("auto_retry_start"), 60_000);
            long sent = System.nanoTime();
            String id = "ar" + t;
            daemon.send("{\"type\":\"abort_retry\",\"id\":\"" + id + "\"}");
            int end = daemon.await(start, line -> line.is("auto_retry_end"), 10_000);
            int response = daemon.await(start, line -> line.isResponse(id), 10_000);
            JsonNode retryEnd = daemon.line(end).json();
            if (retryEnd.path("success").asBoolean()) {
                throw new IllegalStateException("abort_retry did not cancel: " + retryEnd);
            }
            toEnd.add(Stats.ms(daemon.line(end).nanos() - sent));
            toResponse.add(Stats.ms(daemon.line(response).nanos() - sent));
            seen = Math.max(end, response) + 1;
        }
        row("abort_retry sent → auto_retry_end received", toEnd, "≤ 50 ms");
        row("abort_retry sent → its response received", toResponse, "≤ 50 ms");
    }

    private static void row(String what, List<Double> samples, String target) {
        Stats s = new Stats(samples);
        System.out.println("| " + what + " | " + s.count() + " | **" + Stats.f(s.median()) + "** | "
                + Stats.f(s.percentile(95)) + " | " + Stats.f(s.max()) + " | " + target + " |");
    }
}
