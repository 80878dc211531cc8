package dev.agentd.server.wire;

import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.event.AssistantMessageEvent;

/**
 * The pure merge rule of adaptive coalescing (issue 18): two consecutive pending full-mode
 * {@code message_update}s of the same content block and kind ({@code text_delta},
 * {@code thinking_delta}, {@code toolcall_delta}) become one whose delta is the concatenation and
 * whose partial is the later one. A client that replaces its display on each update, or one that
 * appends each delta, ends in exactly the state it would have reached with both.
 *
 * <p>Never merged: start/end events (they carry {@code content}/{@code toolCall}), different
 * blocks or kinds, delta-mode updates (no partial: one line per delta is that mode's contract),
 * and any other record. Two pending updates with nothing between them belong to one message:
 * a message's {@code message_end} and the next one's {@code message_start} always sit between
 * the updates of two messages.
 */
final class UpdateCoalescing {
    private UpdateCoalescing() {}

    /** The full-mode delta update a record carries (rpc event or JSON-RPC notification), else null. */
    static AgentEvent.MessageUpdate mergeableUpdate(Object record) {
        Object event = record instanceof JsonRpcNotification notification
                && JsonRpcNotification.EVENT.equals(notification.method()) ? notification.params() : record;
        if (!(event instanceof AgentEvent.MessageUpdate update)) {
            return null;
        }
        AssistantMessageEvent change = update.assistantMessageEvent();
        boolean delta = change != null && change.delta() != null && change.type() != null
                && change.type().endsWith("_delta") && change.content() == null && change.toolCall() == null;
        return delta && change.partial() != null && update.message() == change.partial() ? update : null;
    }

    /** Whether {@code later} may be folded into {@code earlier} (both from {@link #mergeableUpdate}). */
    static boolean canMerge(AgentEvent.MessageUpdate earlier, AgentEvent.MessageUpdate later) {
        AssistantMessageEvent a = earlier.assistantMessageEvent();
        AssistantMessageEvent b = later.assistantMessageEvent();
        return a.contentIndex() == b.contentIndex() && a.type().equals(b.type());
    }

    /**
     * {@code later} carrying {@code delta} (everything merged into it), wrapped like
     * {@code laterRecord}. The partial stays one object in both places, so the serializer still
     * writes it once and copies the bytes.
     */
    static Object withDelta(Object laterRecord, AgentEvent.MessageUpdate later, String delta) {
        AssistantMessageEvent b = later.assistantMessageEvent();
        AgentEvent.MessageUpdate merged = new AgentEvent.MessageUpdate(later.message(),
                new AssistantMessageEvent(b.type(), b.contentIndex(), delta, null, null, b.partial()), later.usage());
        return laterRecord instanceof JsonRpcNotification ? JsonRpcNotification.event(merged) : merged;
    }
}
