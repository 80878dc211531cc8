package dev.agentd.server.compaction;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.ContentBlocks;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.runtime.CancellationToken;
import java.util.List;

/**
 * Asks the current model for a summary of the older part of a conversation. The transcript is
 * sent as one user message (tool calls and results flattened to text), so any provider can answer
 * — a faux script included.
 */
public final class Summarizer {
    private static final int MAX_RESULT_CHARS = 2_000;
    static final String SYSTEM_PROMPT = """
            You summarize coding-agent conversations so the work can continue in a fresh context.
            Write a concise, structured summary: the user's goal, what was done and decided, files
            touched with their role, open problems, and the next steps. Keep exact names, paths and
            error messages. Do not add commentary.""";

    /** One model call without tools; never throws (failures are error replies). */
    @FunctionalInterface
    public interface Completion {
        AgentMessage.Assistant complete(String systemPrompt, List<AgentMessage> messages, CancellationToken cancel);
    }

    private final Completion completion;

    public Summarizer(Completion completion) {
        this.completion = completion;
    }

    public String summarize(List<AgentMessage> older, String previousSummary, String customInstructions,
            CancellationToken cancel) throws CompactionException {
        String request = request(older, previousSummary, customInstructions);
        AgentMessage.User prompt = new AgentMessage.User(List.of(new ContentBlock.Text(request)), 0);
        AgentMessage.Assistant reply = completion.complete(SYSTEM_PROMPT, List.of(prompt), cancel);
        if (reply.stopReason() == StopReason.ABORTED || cancel.isCancelled()) {
            throw new CompactionException("Compaction cancelled", false);
        }
        if (reply.stopReason() == StopReason.ERROR) {
            throw new CompactionException(reply.errorMessage() == null ? "summary request failed"
                    : reply.errorMessage(), false);
        }
        String summary = reply.text().trim();
        if (summary.isEmpty()) {
            throw new CompactionException("the model returned an empty summary", false);
        }
        return summary;
    }

    static String request(List<AgentMessage> older, String previousSummary, String customInstructions) {
        StringBuilder out = new StringBuilder("Summarize this conversation.\n\n");
        if (previousSummary != null) {
            out.append("<previous-summary>\n").append(previousSummary).append("\n</previous-summary>\n\n");
        }
        out.append("<conversation>\n");
        for (AgentMessage message : older) {
            append(out, message);
        }
        out.append("</conversation>\n");
        if (customInstructions != null && !customInstructions.isBlank()) {
            out.append("\nAdditional instructions: ").append(customInstructions.trim()).append('\n');
        }
        return out.toString();
    }

    private static void append(StringBuilder out, AgentMessage message) {
        if (message instanceof AgentMessage.User user) {
            out.append("[User]: ").append(user.text()).append('\n');
        } else if (message instanceof AgentMessage.Assistant reply) {
            if (reply.stopReason().failed()) {
                return;
            }
            if (!reply.text().isEmpty()) {
                out.append("[Assistant]: ").append(reply.text()).append('\n');
            }
            for (ContentBlock.ToolCall call : reply.toolCalls()) {
                out.append("[Assistant tool call]: ").append(call.name()).append(' ').append(call.arguments())
                        .append('\n');
            }
        } else if (message instanceof AgentMessage.ToolResult result) {
            out.append("[Tool result ").append(result.toolName()).append(result.isError() ? ", error" : "")
                    .append("]: ").append(cut(ContentBlocks.text(result.content()))).append('\n');
        } else if (message instanceof AgentMessage.BashExecution bash) {
            out.append("[User ran]: $ ").append(bash.command()).append('\n').append(cut(bash.output())).append('\n');
        } else if (message instanceof AgentMessage.CompactionSummary summary) {
            out.append("[Earlier summary]: ").append(summary.summary()).append('\n');
        } else if (!(message instanceof AgentMessage.BranchSummary || message instanceof AgentMessage.Custom
                || message instanceof AgentMessage.Unknown)) {
            // Left out of the transcript on purpose: another branch's summary, extension messages, unknown roles.
            throw new IllegalStateException("unhandled message in a summary request: " + message);
        }
    }

    private static String cut(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= MAX_RESULT_CHARS ? text : text.substring(0, MAX_RESULT_CHARS) + " …[truncated]";
    }
}
