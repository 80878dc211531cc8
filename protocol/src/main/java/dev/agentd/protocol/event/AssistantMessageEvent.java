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
 * {@code id} and {@code toolName} (pi 1.x) name the call on {@code toolcall_start} only.
 */
@JsonPropertyOrder({"type", "contentIndex", "id", "toolName", "delta", "content", "toolCall", "partial"})
public record AssistantMessageEvent(
        String type,
        int contentIndex,
        String delta,
        String content,
        ContentBlock.ToolCall toolCall,
        AgentMessage.Assistant partial,
        String id,
        String toolName) {

    /** An event that names no tool call (every type but {@code toolcall_start}). */
    public AssistantMessageEvent(String type, int contentIndex, String delta, String content,
            ContentBlock.ToolCall toolCall, AgentMessage.Assistant partial) {
        this(type, contentIndex, delta, content, toolCall, partial, null, null);
    }

    public AssistantMessageEvent withoutPartial() {
        return partial == null ? this
                : new AssistantMessageEvent(type, contentIndex, delta, content, toolCall, null, id, toolName);
    }
}
