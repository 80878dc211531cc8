package dev.agentd.server.ai.responses;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.HttpErrors;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.runtime.CancellationToken;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code azure-openai-responses} API: the Responses codec against an Azure OpenAI resource
 * ({@link AzureEndpoint}), the key in an {@code api-key} header, the model id as the deployment.
 */
public final class AzureResponsesProvider implements Provider {
    public static final String API = "azure-openai-responses";

    private final HttpReplyStreamer streamer;

    public AzureResponsesProvider(HttpReplyStreamer streamer) {
        this.streamer = streamer;
    }

    @Override
    public String api() {
        return API;
    }

    @Override
    public AgentMessage.Assistant stream(StreamRequest request, StreamListener listener, CancellationToken cancel) {
        Model model = request.model();
        AzureEndpoint endpoint = AzureEndpoint.of(model.baseUrl());
        // Same model but for its URL: the api-version query must follow the path, not precede it.
        Model at = new Model(model.id(), model.name(), model.api(), model.provider(), endpoint.base(),
                model.reasoning(), model.input(), model.cost(), model.contextWindow(), model.maxTokens());
        StreamRequest routed = new StreamRequest(at, request.systemPrompt(), request.messages(), request.tools(),
                request.thinkingLevel(), request.apiKey(), request.headers(), request.sessionId(),
                request.maxOutputTokens());
        Map<String, String> headers = new LinkedHashMap<>();
        if (request.apiKey() != null) {
            headers.put("api-key", request.apiKey());
        }
        return streamer.post(routed, endpoint.path(), headers, () -> ResponsesRequest.build(routed, model.id()),
                HttpErrors::errorCodeOrType,
                (reply, redactor) -> new ResponsesStreamMapper(reply, model, redactor, "Azure OpenAI Responses"),
                listener, cancel);
    }
}
