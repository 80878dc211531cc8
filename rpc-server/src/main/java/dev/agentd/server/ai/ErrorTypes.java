package dev.agentd.server.ai;

/**
 * The {@code errorType} values agentd sets itself on failures it detects (no provider involved).
 * All of them are transient.
 */
public final class ErrorTypes {
    public static final String CONNECTION = "connection_error";
    public static final String CONNECT_TIMEOUT = "connect_timeout";
    public static final String STREAM_START_TIMEOUT = "stream_start_timeout";
    public static final String STREAM_IDLE_TIMEOUT = "stream_idle_timeout";
    /** The stream ended without its terminal event. */
    public static final String STREAM_TRUNCATED = "stream_truncated";

    private ErrorTypes() {}
}
