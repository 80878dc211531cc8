package dev.agentd.server.ai.http;

import dev.agentd.server.ai.sse.SseEvent;
import dev.agentd.server.ai.sse.SseParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a streaming response body into {@link SseEvent}s: SSE for most APIs, a binary frame
 * format (Bedrock's AWS event stream) for others. Every reader bounds what it buffers.
 */
@FunctionalInterface
public interface BodyReader {
    /** Server-sent events. */
    BodyReader SSE = (body, handler) -> new SseParser(handler).parse(body);

    /**
     * Feeds the body's events to {@code handler} until it returns false or the body ends.
     *
     * @return true when the handler stopped reading (the terminal event), false at the body's end
     */
    boolean read(InputStream body, SseParser.Handler handler) throws IOException;
}
