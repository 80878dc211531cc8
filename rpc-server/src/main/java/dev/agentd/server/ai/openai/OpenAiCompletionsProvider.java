package dev.agentd.server.ai.openai;

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
 * The {@code openai-completions} API (OpenAI, OpenRouter, Groq, DeepSeek, Ollama, vLLM, llama.cpp,
 * …): one streaming POST to {@code {baseUrl}/chat/completions} per call with a Bearer key.
 */
public final class OpenAiCompletionsProvider implements Provider {
    public static final String API = "openai-completions";

    private final HttpReplyStreamer streamer;

    public OpenAiCompletionsProvider(HttpReplyStreamer streamer) {
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
        return streamer.post(request, "/chat/completions", headers, () -> OpenAiRequest.build(request),
                HttpErrors::errorCodeOrType,
                (reply, redactor) -> new OpenAiStreamMapper(reply, request.model(), redactor), listener, cancel);
    }
}
