package dev.agentd.server.ai.anthropic;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.runtime.CancellationToken;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code anthropic-messages} API: one streaming POST to {@code {baseUrl}/v1/messages} per call,
 * authenticated with {@code x-api-key}, the model's configured headers added last.
 */
public final class AnthropicProvider implements Provider {
    public static final String API = "anthropic-messages";
    static final String VERSION = "2023-06-01";

    private final HttpReplyStreamer streamer;

    public AnthropicProvider(HttpReplyStreamer streamer) {
        this.streamer = streamer;
    }

    @Override
    public String api() {
        return API;
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("anthropic-version", VERSION);
        if (request.apiKey() != null) {
            headers.put("x-api-key", request.apiKey());
        }
        return streamer.post(request, "/v1/messages", headers, () -> AnthropicRequest.build(request),
                HttpErrors::errorDotType,
                (reply, redactor) -> new AnthropicStreamMapper(reply, request.model(), redactor), listener, cancel);
    }
}
