package dev.agentd.server.ai;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.model.Model;
import dev.agentd.protocol.model.ThinkingLevel;
import java.util.List;

/**
 * Everything a provider needs for one request. {@code messages} is the agent context as it is
 * (providers skip failed and aborted assistant messages themselves); {@code apiKey} may be null for
 * providers that need none and is kept out of {@link #toString()}.
 */
public record StreamRequest(
        Model model,
        String systemPrompt,
        List<AgentMessage> messages,
        List<ToolDefinition> tools,
        ThinkingLevel thinkingLevel,
        String apiKey,
        String sessionId) {

    public StreamRequest {
        messages = List.copyOf(messages);
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    @Override
    public String toString() {
        return "StreamRequest[model=" + (model == null ? null : model.selector()) + ", messages=" + messages.size()
                + ", tools=" + tools.size() + ", thinkingLevel=" + thinkingLevel + ", apiKey=" + (apiKey == null
                ? "none" : "<redacted>") + ", sessionId=" + sessionId + "]";
    }
}
