package dev.agentd.server.ai.gemini;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.ai.Provider;
import dev.agentd.server.ai.StreamListener;
import dev.agentd.server.ai.StreamRequest;
import dev.agentd.server.ai.http.HttpReplyStreamer;
import dev.agentd.server.runtime.CancellationToken;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code google-generative-ai} API (Gemini): one streaming POST to
 * {@code {baseUrl}/models/{model}:streamGenerateContent?alt=sse} per call, pi's baseUrl being
 * {@code https://generativelanguage.googleapis.com/v1beta}. The key goes in the
 * {@code x-goog-api-key} header, never in the URL (which the request log shows).
 */
public final class GeminiProvider implements Provider {
    public static final String API = "google-generative-ai";

    private final HttpReplyStreamer streamer;

    public GeminiProvider(HttpReplyStreamer streamer) {
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
            headers.put("x-goog-api-key", request.apiKey());
        }
        return streamer.post(request, path(request.model().id()), headers, () -> GeminiRequest.build(request),
                GeminiErrors::status,
                (reply, redactor) -> new GeminiStreamMapper(reply, request.model(), redactor), listener, cancel);
    }

    /** A model id may hold a slash ({@code tunedModels/x}) but nothing that would change the URL's meaning. */
    static String path(String modelId) {
        String id = modelId.startsWith("models/") ? modelId.substring("models/".length()) : modelId;
        String encoded = URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20").replace("%2F", "/");
        return "/models/" + encoded + ":streamGenerateContent?alt=sse";
    }
}
