package dev.agentd.server.ai.http;

/**
 * The limits of one provider request (SPEC §2, §6.1), in milliseconds.
 *
 * @param connectMs establishing the TCP/TLS connection
 * @param streamStartMs from sending the request to the first byte of the response body
 * @param streamIdleMs the longest gap between two SSE events; keep-alive comments count only
 *     before the first event
 * @param firstEventMs from sending the request to the first SSE event, however many keep-alive
 *     comments come before it: a server that only ever sends {@code : ping} still ends
 */
public record ProviderTimeouts(long connectMs, long streamStartMs, long streamIdleMs, long firstEventMs) {

    public static final long DEFAULT_FIRST_EVENT_MS = 300_000;
    public static final ProviderTimeouts DEFAULTS = new ProviderTimeouts(10_000, 120_000, 120_000,
            DEFAULT_FIRST_EVENT_MS);
    /** A day: longer is surely a typo, and shorter than 1 ms cannot be honoured. */
    public static final long MAX_MS = 24L * 60 * 60 * 1000;

    public ProviderTimeouts {
        if (connectMs < 1 || streamStartMs < 1 || streamIdleMs < 1 || firstEventMs < 1) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
    }

    /** The three classic limits with the default first-event deadline. */
    public ProviderTimeouts(long connectMs, long streamStartMs, long streamIdleMs) {
        this(connectMs, streamStartMs, streamIdleMs, DEFAULT_FIRST_EVENT_MS);
    }
}
