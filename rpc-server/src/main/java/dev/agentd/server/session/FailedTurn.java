package dev.agentd.server.session;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import java.util.List;

/**
 * Whether the working context ends in a turn a manual {@code retry} may re-run (SPEC §5.8): its
 * last user or assistant message is a reply that ended with an error. Messages of neither kind
 * (a user's bash output flushed while idle, for one) do not hide it. An aborted reply is not an
 * error: the user stopped it, and a prompt says what to do next.
 */
final class FailedTurn {
    private FailedTurn() {}

    static boolean retryable(List<AgentMessage> context) {
        for (int i = context.size() - 1; i >= 0; i--) {
            AgentMessage message = context.get(i);
            if (message instanceof AgentMessage.User) {
                return false;
            }
            if (message instanceof AgentMessage.Assistant) {
                return isErrorReply(message);
            }
        }
        return false;
    }

    static boolean isErrorReply(AgentMessage message) {
        return message instanceof AgentMessage.Assistant reply && reply.stopReason() == StopReason.ERROR;
    }
}
