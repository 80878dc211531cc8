package dev.agentd.server.ai;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.List;
import java.util.Map;

/**
 * Everything a provider needs for one request. {@code messages} is the agent context as it is
 * (providers skip failed and aborted assistant messages themselves); {@code apiKey} may be null for
 * providers that need none; {@code headers} are the model's configured extra headers, already
 * resolved. Both may hold secrets and are kept out of {@link #toString()}. {@code maxOutputTokens}
 * limits the reply when positive (a probe-back asks for one token); 0 leaves the provider's default.
 */
public record StreamRequest(
        Model model,
        String systemPrompt,
        List<AgentMessage> messages,
        List<ToolDefinition> tools,
        ThinkingLevel thinkingLevel,
        String apiKey,
        Map<String, String> headers,
        String sessionId,
        int maxOutputTokens) {

    /** A request with the provider's default output limit. */
    public StreamRequest(Model model, String systemPrompt, List<AgentMessage> messages, List<ToolDefinition> tools,
            ThinkingLevel thinkingLevel, String apiKey, Map<String, String> headers, String sessionId) {
        this(model, systemPrompt, messages, tools, thinkingLevel, apiKey, headers, sessionId, 0);
    }

    public StreamRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    /** The same request sent to another endpoint (a cloud provider derives it from region or location). */
    public StreamRequest withBaseUrl(String baseUrl) {
        Model m = model;
        if (baseUrl.equals(m.baseUrl())) {
            return this;
        }
        Model routed = new Model(m.id(), m.name(), m.api(), m.provider(), baseUrl, m.reasoning(), m.input(), m.cost(),
                m.contextWindow(), m.maxTokens());
        return new StreamRequest(routed, systemPrompt, messages, tools, thinkingLevel, apiKey, headers, sessionId,
                maxOutputTokens);
    }

    @Override
    public String toString() {
        return "StreamRequest[model=" + (model == null ? null : model.selector()) + ", messages=" + messages.size()
                + ", tools=" + tools.size() + ", thinkingLevel=" + thinkingLevel + ", apiKey=" + (apiKey == null
                ? "none" : "<redacted>") + ", sessionId=" + sessionId + "]";
    }
}
