package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import java.util.List;

/**
 * Whether the working context ends in a turn a manual {@code retry} may re-run (SPEC §5.8): its
 * last message of the turn's own kinds (user, assistant, tool result) is a reply that ended with
 * an error, or a user message or tool result no reply followed — a chain cancelled during its
 * backoff sleep had already dropped its failed reply. Other messages (a user's bash output
 * flushed while idle, a compaction summary) do not hide it. An aborted reply is not a failure:
 * the user stopped it, and a prompt says what to do next.
 */
final class FailedTurn {
    private FailedTurn() {}

    static boolean retryable(List<AgentMessage> context) {
        for (int i = context.size() - 1; i >= 0; i--) {
            AgentMessage message = context.get(i);
            if (message instanceof AgentMessage.Assistant) {
                return isErrorReply(message);
            }
            if (message instanceof AgentMessage.User || message instanceof AgentMessage.ToolResult) {
                return true;
            }
        }
        return false;
    }

    static boolean isErrorReply(AgentMessage message) {
        return message instanceof AgentMessage.Assistant reply && reply.stopReason() == StopReason.ERROR;
    }
}
