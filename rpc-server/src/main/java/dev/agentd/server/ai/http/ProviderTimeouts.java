package dev.agentd.server.ai.http;

/**
 * The three limits of one provider request (SPEC §2, §6.1), in milliseconds.
 *
 * @param connectMs establishing the TCP/TLS connection
 * @param streamStartMs from sending the request to the first byte of the response body
 * @param streamIdleMs the longest gap between two SSE events (or keep-alive comments)
 */
public record ProviderTimeouts(long connectMs, long streamStartMs, long streamIdleMs) {

    public static final ProviderTimeouts DEFAULTS = new ProviderTimeouts(10_000, 120_000, 120_000);
    /** A day: longer is surely a typo, and shorter than 1 ms cannot be honoured. */
    public static final long MAX_MS = 24L * 60 * 60 * 1000;

    public ProviderTimeouts {
        if (connectMs < 1 || streamStartMs < 1 || streamIdleMs < 1) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
    }
}
