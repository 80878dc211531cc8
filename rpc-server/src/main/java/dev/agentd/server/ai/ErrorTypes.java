package dev.agentd.server.ai;

/**
 * The {@code errorType} values agentd sets itself. The transport and stream failures are
 * transient; {@link #REFUSAL} is final for the model that refused.
 */
public final class ErrorTypes {
    public static final String CONNECTION = "connection_error";
    public static final String CONNECT_TIMEOUT = "connect_timeout";
    public static final String STREAM_START_TIMEOUT = "stream_start_timeout";
    public static final String STREAM_IDLE_TIMEOUT = "stream_idle_timeout";
    /** The stream ended without its terminal event. */
    public static final String STREAM_TRUNCATED = "stream_truncated";
    /**
     * The model declined to answer (Anthropic {@code stop_reason:"refusal"}, OpenAI
     * {@code delta.refusal}, a content filter): never retried on the same model.
     */
    public static final String REFUSAL = "refusal";
    /**
     * The reply streamed past its bound ({@link ReplyBound}) and was cut: final, since a retry
     * would stream the same again (issue 22, N2).
     */
    public static final String REPLY_TOO_LARGE = "reply_too_large";

    private ErrorTypes() {}
}
