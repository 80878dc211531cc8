package dev.agentd.server.e2e;

import dev.agentd.server.testing.http.FakeProviderServer;
import dev.agentd.server.testing.http.FakeProviderServer.End;
import dev.agentd.server.testing.http.OpenAiWire;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded hostile OpenAI-compatible replies for {@link GrammarFuzzIT}: statuses of every class,
 * hostile headers (garbage and huge retry hints), bodies that are empty, not JSON, large, or echo
 * the request's key, SSE streams that drop, hang, truncate, carry garbage or in-band errors — and
 * sometimes a good reply. Text lengths stay at a few KiB: this run checks that nothing wedges or
 * leaks, not how the classifier copes with megabytes.
 */
final class HostileReplies {
    private final Random random;
    private final String key;

    HostileReplies(long seed, String key) {
        this.random = new Random(seed);
        this.key = key;
    }

    FakeProviderServer.Reply next() {
        List<String> good = OpenAiWire.textReply("Fuzz ", "reply ", "\u2028 ", "ok.");
        return switch (random.nextInt(14)) {
            case 0, 1 -> FakeProviderServer.sse(good);
            case 2 -> FakeProviderServer.sse(good).withDelay(5);
            case 3 -> FakeProviderServer.sse(good.subList(0, 2)).ending(End.DROP);
            case 4 -> FakeProviderServer.sse(good.subList(0, 1 + random.nextInt(2))).ending(End.HANG);
            case 5 -> FakeProviderServer.sse(List.of(OpenAiWire.role(), "data: {\"choices\":[{\"delta\":{\"content\""
                    + "\u0000\n\n", "data: [DONE", "\u00ff\u00fe\r\r\r", ": " + "c".repeat(random.nextInt(4000)) + "\n\n"));
            case 6 -> FakeProviderServer.sse(List.of(OpenAiWire.role(), OpenAiWire.inBandError(
                    "in-band " + text(200) + " key " + key, pick("server_error", "rate_limit_exceeded",
                            "insufficient_quota", text(100)), null)));
            case 7 -> FakeProviderServer.sse(List.of(OpenAiWire.role(), OpenAiWire.content("half"),
                    OpenAiWire.finish(pick("length", "content_filter", text(300), "tool_calls")), OpenAiWire.done()));
            case 8 -> FakeProviderServer.json(status(), "", hostileHeaders());
            case 9 -> FakeProviderServer.json(status(), "<html>" + text(2000) + "</html>", hostileHeaders());
            case 10 -> FakeProviderServer.json(status(), OpenAiWire.errorBody("bad key " + key + " was sent",
                    "invalid_request_error", null), Map.of());
            case 11 -> FakeProviderServer.json(429, OpenAiWire.errorBody("Rate limit. Please try again in "
                    + pick("1.5s", "2ms", "1a".repeat(200), "99999999h", "-1s"), "rate_limit_exceeded", null),
                    hostileHeaders());
            case 12 -> FakeProviderServer.json(200, "{\"choices\":[]}", Map.of()); // JSON where SSE was asked for
            default -> new FakeProviderServer.Stream(status(), Map.of("content-type", "text/event-stream"),
                    List.of("data: " + text(3000) + "\n\n"), 0, End.FINISH);
        };
    }

    /**
     * An error whose text quotes the request back, as some gateways and proxies do: the request
     * target and every header value of {@code request} and of {@code previous} (a proxy that mixes
     * up its clients), each whole and split at spaces, {@code ?}, {@code &} and {@code =}, raw,
     * URL-encoded and base64-encoded ({@link LeakScanIT}).
     */
    static FakeProviderServer.Reply echo(int status, String message, FakeProviderServer.RecordedRequest request,
            FakeProviderServer.RecordedRequest previous) {
        StringBuilder text = new StringBuilder(message).append("; you sent:");
        for (FakeProviderServer.RecordedRequest quoted : previous == null ? List.of(request)
                : List.of(request, previous)) {
            List<String> values = new java.util.ArrayList<>(List.of(quoted.target()));
            quoted.headers().values().forEach(values::addAll);
            for (String value : values) {
                for (String part : (value + " " + value.replaceAll("[?&=/ ]", " ")).split(" ")) {
                    if (!part.isEmpty()) {
                        text.append(' ').append(part).append(' ')
                                .append(java.net.URLEncoder.encode(part, java.nio.charset.StandardCharsets.UTF_8))
                                .append(' ').append(java.util.Base64.getEncoder().encodeToString(
                                        part.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                    }
                }
            }
        }
        return FakeProviderServer.json(status, OpenAiWire.errorBody(text.toString(), "server_error", null), Map.of());
    }

    private int status() {
        return pick(new int[] {400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529, 599, 302, 204});
    }

    private Map<String, String> hostileHeaders() {
        return switch (random.nextInt(4)) {
            case 0 -> Map.of("retry-after", pick("0", "-5", "1e400", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"));
            case 1 -> Map.of("retry-after-ms", "9".repeat(1 + random.nextInt(40)));
            case 2 -> Map.of("x-ratelimit-reset-requests", "1s".repeat(1 + random.nextInt(200)));
            default -> Map.of("x-junk", text(4000));
        };
    }

    /** Printable ASCII with quotes and backslashes escaped away (bodies are JSON-quoted by the caller). */
    private String text(int max) {
        StringBuilder text = new StringBuilder();
        int length = 1 + random.nextInt(max);
        while (text.length() < length) {
            text.append((char) ('a' + random.nextInt(26)));
            if (random.nextInt(8) == 0) {
                text.append(' ');
            }
        }
        return text.toString();
    }

    private String pick(String... values) {
        return values[random.nextInt(values.length)];
    }

    private int pick(int[] values) {
        return values[random.nextInt(values.length)];
    }
}
