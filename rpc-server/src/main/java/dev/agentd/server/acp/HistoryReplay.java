package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A stored conversation as the updates {@code session/load} replays (issue 16 §1): the user's
 * messages as {@code user_message_chunk}, replies as message and thought chunks, each tool call as
 * a {@code tool_call} and its result as the {@code tool_call_update} that finished it. The whole
 * transcript is replayed, messages a compaction took out of the context included (A1/Z5); each
 * compaction's summary stands where it was made ({@link #summary}). Every chunk carries the
 * {@code messageId} of its message, so two replies in a row stay two messages. Pure. What is not
 * replayed is listed; anything else fails loudly rather than vanish from the history.
 */
final class HistoryReplay {
    /** Messages without an ACP counterpart: context for the model, not transcript for the editor. */
    static final Set<Class<? extends AgentMessage>> NOT_REPLAYED = Set.of(AgentMessage.BashExecution.class,
            AgentMessage.BranchSummary.class, AgentMessage.Custom.class, AgentMessage.Unknown.class);
    /** The replayed messages' ids: distinct from the live ones ({@code AcpSession}), stable across loads. */
    static final String MESSAGE_ID_PREFIX = "stored-";
    /** Blocks not shown, by where they stand: a user's message, a reply, a tool's result. */
    static final Set<Class<? extends ContentBlock>> NOT_IN_USER_CHUNKS = Set.of(ContentBlock.Thinking.class,
            ContentBlock.ToolCall.class, ContentBlock.Unknown.class);
    static final Set<Class<? extends ContentBlock>> NOT_IN_REPLY_CHUNKS = Set.of(ContentBlock.Image.class,
            ContentBlock.Unknown.class);
    static final Set<Class<? extends ContentBlock>> NOT_IN_RESULTS = Set.of(ContentBlock.Image.class,
            ContentBlock.Thinking.class, ContentBlock.ToolCall.class, ContentBlock.Unknown.class);

    private HistoryReplay() {}

    /**
     * @param messages the session's transcript ({@code AgentSession#transcript}), not only its context
     * @param compaction the client advertised {@code session.compaction}
     */
    static List<ObjectNode> updates(List<AgentMessage> messages, Path cwd, boolean compaction) {
        List<ObjectNode> updates = new ArrayList<>();
        Map<String, ContentBlock.ToolCall> calls = new HashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            AgentMessage message = messages.get(i);
            String messageId = MESSAGE_ID_PREFIX + i;
            if (message instanceof AgentMessage.User user) {
                for (ContentBlock block : user.content()) {
                    content(block).ifPresent(content -> updates.add(chunk("user_message_chunk", content, messageId)));
                }
            } else if (message instanceof AgentMessage.CompactionSummary summary) {
                updates.add(summary(summary, i, compaction));
            } else if (message instanceof AgentMessage.Assistant reply) {
                for (ContentBlock block : reply.content()) {
                    if (block instanceof ContentBlock.Text text) {
                        if (!text.text().isEmpty()) {
                            updates.add(chunk("agent_message_chunk", AcpJson.text(text.text()), messageId));
                        }
                    } else if (block instanceof ContentBlock.Thinking thinking) {
                        if (thinking.thinking() != null && !thinking.thinking().isEmpty()) {
                            updates.add(chunk("agent_thought_chunk", AcpJson.text(thinking.thinking()), messageId));
                        }
                    } else if (block instanceof ContentBlock.ToolCall call) {
                        calls.put(call.id(), call);
                        updates.add(toolCall(call, cwd));
                    } else {
                        skip(block, NOT_IN_REPLY_CHUNKS);
                    }
                }
            } else if (message instanceof AgentMessage.ToolResult result) {
                updates.add(toolResult(result, calls.get(result.toolCallId()), cwd));
            } else if (!NOT_REPLAYED.contains(message.getClass())) {
                throw new IllegalStateException("unhandled stored message: " + message.getClass().getSimpleName());
            }
        }
        return updates;
    }

    private static Optional<ObjectNode> content(ContentBlock block) {
        if (block instanceof ContentBlock.Text text) {
            return Optional.of(AcpJson.text(text.text()));
        }
        if (block instanceof ContentBlock.Image image) {
            return Optional.of(AcpJson.object().put("type", "image").put("data", image.data())
                    .put("mimeType", image.mimeType()));
        }
        skip(block, NOT_IN_USER_CHUNKS);
        return Optional.empty();
    }

    /** A block not shown here must be listed as such: a new kind of block is never lost unnoticed. */
    static void skip(ContentBlock block, Set<Class<? extends ContentBlock>> notShown) {
        if (!notShown.contains(block.getClass())) {
            throw new IllegalStateException("unhandled content block: " + block.getClass().getSimpleName());
        }
    }

    private static ObjectNode chunk(String kind, ObjectNode content, String messageId) {
        ObjectNode update = AcpJson.update(kind);
        update.set("content", content);
        update.put("messageId", messageId);
        return update;
    }

    /**
     * A compaction where it was made: a completed {@code compaction_update} with its summary for a
     * client that shows compactions, else a marked message of its own saying what the summary is.
     */
    static ObjectNode summary(AgentMessage.CompactionSummary summary, int index, boolean compaction) {
        ObjectNode meta = AcpJson.object();
        meta.putObject("agentd/compaction").put("tokensBefore", summary.tokensBefore());
        ObjectNode update;
        if (compaction) {
            update = AcpJson.update("compaction_update").put("compactionId", MESSAGE_ID_PREFIX + "compaction-" + index)
                    .put("status", "completed");
            update.putArray("summary").add(AcpJson.text(summary.summary()));
        } else {
            update = chunk("agent_message_chunk", AcpJson.text("\n[agentd] The conversation above was compacted; "
                    + "the model continued from this summary:\n\n" + summary.summary() + "\n"), MESSAGE_ID_PREFIX + index);
        }
        update.set("_meta", meta);
        return update;
    }

    private static ObjectNode toolCall(ContentBlock.ToolCall call, Path cwd) {
        ObjectNode update = AcpJson.update("tool_call").put("toolCallId", call.id())
                .put("title", ToolCalls.title(call.name(), call.arguments(), cwd))
                .put("kind", ToolCalls.kind(call.name()))
                .put("status", "pending");
        update.set("locations", ToolCalls.locations(call.arguments(), cwd));
        if (call.arguments() != null) {
            update.set("rawInput", call.arguments());
        }
        return update;
    }

    private static ObjectNode toolResult(AgentMessage.ToolResult result, ContentBlock.ToolCall call, Path cwd) {
        ObjectNode update = AcpJson.update("tool_call_update").put("toolCallId", result.toolCallId())
                .put("status", result.isError() ? "failed" : "completed");
        ArrayNode content = AcpJson.array();
        JsonNode args = call == null ? null : call.arguments();
        ObjectNode diff = result.isError() ? null : ToolCalls.diff(result.toolName(), args, cwd);
        if (diff != null) {
            content.add(diff);
        }
        for (ContentBlock block : result.content()) {
            if (block instanceof ContentBlock.Text text) {
                content.add(AcpJson.object().put("type", "content").set("content", AcpJson.text(text.text())));
            } else {
                skip(block, NOT_IN_RESULTS);
            }
        }
        update.set("content", content);
        return update;
    }
}
