package dev.agentd.server.compaction;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.util.List;

/**
 * Context size in tokens: the provider's own count where one exists (the last successful reply's
 * usage covers everything up to it), plus about four characters a token for what came after.
 */
public final class TokenEstimate {
    /** Images are charged a flat amount; providers bill roughly this for a typical screenshot. */
    private static final long IMAGE_TOKENS = 1_200;

    private TokenEstimate() {}

    /** The estimated size of the whole context. */
    public static long contextTokens(List<AgentMessage> context) {
        int anchor = -1;
        long anchorTokens = 0;
        for (int i = context.size() - 1; i >= 0; i--) {
            if (context.get(i) instanceof AgentMessage.Assistant reply && reply.stopReason() != StopReason.ERROR
                    && reply.stopReason() != StopReason.ABORTED && tokens(reply.usage()) > 0) {
                anchor = i;
                anchorTokens = tokens(reply.usage());
                break;
            }
        }
        long total = anchorTokens;
        for (int i = anchor + 1; i < context.size(); i++) {
            total += of(context.get(i));
        }
        return total;
    }

    /** The sum of the per-message estimates, usage ignored: pi 1.6's {@code estimatedTokensAfter}. */
    public static long messagesTokens(List<AgentMessage> messages) {
        long total = 0;
        for (AgentMessage message : messages) {
            total += of(message);
        }
        return total;
    }

    private static long tokens(Usage usage) {
        long sum = usage.input() + usage.output() + usage.cacheRead() + usage.cacheWrite();
        return usage.totalTokens() > 0 ? usage.totalTokens() : sum;
    }

    /** About four characters a token. */
    public static long of(AgentMessage message) {
        long chars = 0;
        long images = 0;
        if (message instanceof AgentMessage.User user) {
            for (ContentBlock block : user.content()) {
                chars += chars(block);
                images += block instanceof ContentBlock.Image ? 1 : 0;
            }
        } else if (message instanceof AgentMessage.Assistant reply) {
            for (ContentBlock block : reply.content()) {
                chars += chars(block);
            }
        } else if (message instanceof AgentMessage.ToolResult result) {
            for (ContentBlock block : result.content()) {
                chars += chars(block);
                images += block instanceof ContentBlock.Image ? 1 : 0;
            }
        } else if (message instanceof AgentMessage.BashExecution bash) {
            chars += length(bash.command()) + length(bash.output());
        } else if (message instanceof AgentMessage.CompactionSummary summary) {
            chars += length(summary.summary());
        } else if (message instanceof AgentMessage.BranchSummary summary) {
            chars += length(summary.summary());
        } else if (!(message instanceof AgentMessage.Custom || message instanceof AgentMessage.Unknown)) {
            // Custom and unknown messages are not estimated (0 tokens), as they have never been.
            throw new IllegalStateException("unhandled message in a token estimate: " + message);
        }
        return (chars + 3) / 4 + images * IMAGE_TOKENS;
    }

    private static long chars(ContentBlock block) {
        if (block instanceof ContentBlock.Text text) {
            return length(text.text());
        }
        if (block instanceof ContentBlock.Thinking thinking) {
            return length(thinking.thinking());
        }
        if (block instanceof ContentBlock.ToolCall call) {
            return length(call.name()) + (call.arguments() == null ? 0 : call.arguments().toString().length());
        }
        if (block instanceof ContentBlock.Image || block instanceof ContentBlock.Unknown) {
            return 0; // an image is counted as IMAGE_TOKENS by the caller; an unknown block is not sent
        }
        throw new IllegalStateException("unhandled block in a token estimate: " + block);
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }
}
