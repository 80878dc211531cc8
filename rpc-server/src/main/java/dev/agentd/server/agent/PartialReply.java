package dev.agentd.server.agent;

import dev.agentd.protocol.event.ResumedFrom;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a retry keeps of a reply whose stream was cut (issue 27 point 3, SPEC §5.9). Pure rules:
 * <ul>
 * <li>a tool call is kept only if its block ended ({@code toolcall_end} was emitted: its input is
 *     complete); a kept reply with calls ends as {@code toolUse} and the loop runs them once, the
 *     retry never asks for them again;</li>
 * <li>text is kept (trailing whitespace trimmed: a prefill must not end with it) when there are
 *     kept calls, or when the API continues a trailing assistant message (prefill) and the reply
 *     did not think (Anthropic refuses a prefill with extended thinking); otherwise text alone is
 *     dropped and the turn is re-asked as before;</li>
 * <li>thinking is kept only when signed (complete) and the reply keeps tool calls, where the
 *     provider wants it replayed before them; partial or unsigned thinking is dropped.</li>
 * </ul>
 * The kept message is an ordinary assistant message without error fields or usage (the failed
 * reply, which stays in the session file, already counted it); the session file records it.
 */
public final class PartialReply {
    /** The APIs that continue a trailing assistant message (prefill). */
    private static final Set<String> PREFILL_APIS = Set.of("anthropic-messages");

    private PartialReply() {}

    /** The kept part of {@code failed} and what it holds, or empty when nothing is worth keeping. */
    public record Kept(AgentMessage.Assistant message, ResumedFrom resumedFrom) {}

    public static boolean prefillAllowed(String api) {
        return PREFILL_APIS.contains(api);
    }

    /**
     * Applies the rules above to a reply that failed mid-stream; {@code completedToolCalls} are ids;
     * {@code continuesText} is false when the next request would not continue text even on a prefill
     * API: it goes to another model, or it thinks (Anthropic refuses a prefill with thinking on).
     */
    public static Optional<Kept> keep(AgentMessage.Assistant failed, Set<String> completedToolCalls,
            boolean continuesText) {
        if (failed == null || failed.stopReason() != StopReason.ERROR) {
            return Optional.empty();
        }
        List<ContentBlock.ToolCall> calls = new ArrayList<>();
        for (ContentBlock block : failed.content()) {
            if (block instanceof ContentBlock.ToolCall call && completedToolCalls.contains(call.id())) {
                calls.add(call);
            }
        }
        boolean withCalls = !calls.isEmpty();
        // Anthropic refuses a prefill while extended thinking is on; a reply that thought says it was.
        if (!withCalls && (!continuesText || !prefillAllowed(failed.api())
                || failed.content().stream().anyMatch(ContentBlock.Thinking.class::isInstance))) {
            return Optional.empty();
        }
        List<ContentBlock> kept = new ArrayList<>();
        for (ContentBlock block : failed.content()) {
            if (block instanceof ContentBlock.Text text && !text.text().isBlank()) {
                kept.add(text);
            } else if (block instanceof ContentBlock.Thinking thinking && withCalls
                    && thinking.thinkingSignature() != null && !thinking.thinkingSignature().isEmpty()) {
                kept.add(thinking);
            } else if (block instanceof ContentBlock.ToolCall call && calls.contains(call)) {
                kept.add(call);
            }
        }
        if (!withCalls) {
            kept = trimTrailingText(kept);
        }
        int textChars = textChars(kept);
        if (textChars == 0 && !withCalls) {
            return Optional.empty();
        }
        AgentMessage.Assistant message = new AgentMessage.Assistant(kept, failed.api(), failed.provider(),
                failed.model(), Usage.ZERO, withCalls ? StopReason.TOOL_USE : StopReason.STOP, null,
                failed.timestamp(), null, null, null, null, failed.responseModel());
        return Optional.of(new Kept(message, new ResumedFrom(textChars, calls.size())));
    }

    /** {@code kept} (a reply {@link #keep} made) if it is text the next request continues (prefill). */
    public static Optional<AgentMessage.Assistant> prefill(Optional<AgentMessage.Assistant> kept) {
        return kept.filter(reply -> reply.stopReason() == StopReason.STOP && reply.toolCalls().isEmpty());
    }

    /** {@code kept} (a reply {@link #keep} made) if it holds complete calls still waiting for their results. */
    public static Optional<AgentMessage.Assistant> unansweredCalls(Optional<AgentMessage.Assistant> kept) {
        return kept.filter(reply -> reply.stopReason() == StopReason.TOOL_USE && !reply.toolCalls().isEmpty());
    }

    /**
     * One reply from the kept text and its continuation: the kept blocks first, the continuation's
     * first text block appended to the kept last text block, so the text reads as one; everything
     * else of the continuation (its usage, stop reason, errors) is the continuation's.
     */
    public static AgentMessage.Assistant merge(AgentMessage.Assistant kept, AgentMessage.Assistant continuation) {
        List<ContentBlock> content = new ArrayList<>(kept.content());
        boolean joined = false;
        for (ContentBlock block : continuation.content()) {
            if (!joined && block instanceof ContentBlock.Text next && !content.isEmpty()
                    && content.get(content.size() - 1) instanceof ContentBlock.Text last) {
                content.set(content.size() - 1, new ContentBlock.Text(last.text() + next.text(), last.textSignature()));
                joined = true;
            } else {
                content.add(block);
            }
        }
        return new AgentMessage.Assistant(content, continuation.api(), continuation.provider(), continuation.model(),
                continuation.usage(), continuation.stopReason(), continuation.errorMessage(), kept.timestamp(),
                continuation.errorStatus(), continuation.errorType(), continuation.retryAfterMs(),
                continuation.shouldRetry(), continuation.responseModel());
    }

    private static List<ContentBlock> trimTrailingText(List<ContentBlock> blocks) {
        List<ContentBlock> out = new ArrayList<>(blocks);
        while (!out.isEmpty() && out.get(out.size() - 1) instanceof ContentBlock.Text text) {
            String trimmed = text.text().stripTrailing();
            if (trimmed.isEmpty()) {
                out.remove(out.size() - 1);
            } else {
                out.set(out.size() - 1, new ContentBlock.Text(trimmed, text.textSignature()));
                break;
            }
        }
        return out;
    }

    private static int textChars(List<ContentBlock> blocks) {
        int chars = 0;
        for (ContentBlock block : blocks) {
            if (block instanceof ContentBlock.Text text) {
                chars += text.text().length();
            }
        }
        return chars;
    }
}
