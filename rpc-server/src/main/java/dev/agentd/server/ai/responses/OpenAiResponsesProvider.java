package dev.agentd.server.ai.responses;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.runtime.CancellationToken;
import java.util.LinkedHashMap;
import java.util.Map;

/** The {@code openai-responses} API: one streaming POST to {@code {baseUrl}/responses} per call, Bearer key. */
public final class OpenAiResponsesProvider implements Provider {
    public static final String API = "openai-responses";

    private final HttpReplyStreamer streamer;

    public OpenAiResponsesProvider(HttpReplyStreamer streamer) {
        this.streamer = streamer;
    }

    @Override
    public String api() {
        return API;
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (request.apiKey() != null) {
            headers.put("authorization", "Bearer " + request.apiKey());
        }
        return streamer.post(request, "/responses", headers, () -> ResponsesRequest.build(request, request.model().id()),
                HttpErrors::errorCodeOrType,
                (reply, redactor) -> new ResponsesStreamMapper(reply, request.model(), redactor, "OpenAI Responses"),
                listener, cancel);
    }
}
