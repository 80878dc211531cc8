package dev.agentd.protocol.event;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;

/**
 * What changed in a streaming assistant message ({@code message_update.assistantMessageEvent}).
 * {@code type} is one of text_start/_delta/_end, thinking_start/_delta/_end,
 * toolcall_start/_delta/_end; {@code delta} carries the appended text (raw JSON fragment for tool
 * calls), {@code content} the whole block text at its end, {@code toolCall} the finished call.
 * {@code partial} is the whole message so far; it is absent in {@code delta} update mode.
 */
@JsonPropertyOrder({"type", "contentIndex", "delta", "content", "toolCall", "partial"})
public record AssistantMessageEvent(
        String type,
        int contentIndex,
        String delta,
        String content,
        ContentBlock.ToolCall toolCall,
        AgentMessage.Assistant partial) {

    public AssistantMessageEvent withoutPartial() {
        return partial == null ? this : new AssistantMessageEvent(type, contentIndex, delta, content, toolCall, null);
    }
}
