package dev.agentd.server.ai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.model.Model;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent context as a provider may send it, shared by every HTTP API so the rules live once:
 * failed and aborted replies are dropped (with results of their tool calls); a tool call left
 * without a result gets a placeholder error result; consecutive tool results form one group;
 * {@code bashExecution}, summaries and custom messages become user text; thinking from another
 * model becomes plain text (its signature would not verify); images become a note for text-only
 * models; empty text is dropped. Each provider then only maps {@link Turn}s to its wire shape.
 */
public final class ContextConverter {
    public static final String NO_RESULT = "No result provided";
    static final String IMAGE_OMITTED = "(image omitted: model does not support images)";
    private static final String COMPACTION_PREAMBLE =
            "The conversation history before this point was compacted into the following summary:";
    private static final String BRANCH_PREAMBLE =
            "The following is a summary of a branch that this conversation came back from:";

    private ContextConverter() {}

    /** A provider-neutral turn. */
    public sealed interface Turn {}

    /** User content: text and image blocks only, never empty. */
    public record UserTurn(List<ContentBlock> content) implements Turn {}

    /** Assistant content: text, thinking (signed by this model, or redacted) and tool calls, never empty. */
    public record AssistantTurn(List<ContentBlock> content) implements Turn {}

    /** The results answering the previous assistant turn's tool calls, in call order. */
    public record ToolResults(List<Result> results) implements Turn {}

    public record Result(String toolCallId, String toolName, List<ContentBlock> content, boolean isError) {}

    public static List<Turn> convert(List<AgentMessage> messages, Model target) {
        boolean images = target.input().contains("image");
        List<Turn> turns = new ArrayList<>();
        Map<String, String> pendingCalls = new LinkedHashMap<>(); // id → tool name, awaiting results
        List<Result> results = new ArrayList<>();
        for (AgentMessage message : messages) {
            if (message instanceof AgentMessage.ToolResult result) {
                if (pendingCalls.remove(result.toolCallId()) != null) {
                    results.add(new Result(result.toolCallId(), result.toolName(),
                            userContent(result.content(), images), result.isError()));
                }
                continue;
            }
            if (message instanceof AgentMessage.Assistant assistant && assistant.stopReason().failed()) {
                continue;
            }
            List<ContentBlock> content = null;
            boolean assistantTurn = message instanceof AgentMessage.Assistant;
            if (message instanceof AgentMessage.Assistant assistant) {
                content = assistantContent(assistant, target);
            } else {
                content = asUserContent(message, images);
            }
            if (content == null || content.isEmpty()) {
                continue;
            }
            closeToolResults(turns, pendingCalls, results);
            if (assistantTurn) {
                turns.add(new AssistantTurn(content));
                for (ContentBlock block : content) {
                    if (block instanceof ContentBlock.ToolCall call) {
                        pendingCalls.put(call.id(), call.name());
                    }
                }
            } else {
                turns.add(new UserTurn(content));
            }
        }
        closeToolResults(turns, pendingCalls, results);
        return turns;
    }

    /** Ends the open group: placeholders for calls nobody answered, then the group itself. */
    private static void closeToolResults(List<Turn> turns, Map<String, String> pendingCalls, List<Result> results) {
        pendingCalls.forEach((id, name) ->
                results.add(new Result(id, name, List.of(new ContentBlock.Text(NO_RESULT)), true)));
        pendingCalls.clear();
        if (!results.isEmpty()) {
            turns.add(new ToolResults(List.copyOf(results)));
            results.clear();
        }
    }

    private static List<ContentBlock> assistantContent(AgentMessage.Assistant message, Model target) {
        boolean sameModel = target.api().equals(message.api()) && target.provider().equals(message.provider())
                && target.id().equals(message.model());
        List<ContentBlock> out = new ArrayList<>();
        for (ContentBlock block : message.content()) {
            if (block instanceof ContentBlock.Text text) {
                if (text.text() != null && !text.text().isBlank()) {
                    // A text or call signature (Gemini's thoughtSignature) verifies only for the model that made it.
                    out.add(sameModel || text.textSignature() == null ? text : new ContentBlock.Text(text.text()));
                }
            } else if (block instanceof ContentBlock.Thinking thinking) {
                boolean redacted = Boolean.TRUE.equals(thinking.redacted());
                if (sameModel && (redacted || (thinking.thinkingSignature() != null
                        && !thinking.thinkingSignature().isBlank()))) {
                    out.add(thinking);
                } else if (!redacted && thinking.thinking() != null && !thinking.thinking().isBlank()) {
                    out.add(new ContentBlock.Text(thinking.thinking()));
                }
            } else if (block instanceof ContentBlock.ToolCall call) {
                out.add(sameModel || call.thoughtSignature() == null ? call
                        : new ContentBlock.ToolCall(call.id(), call.name(), call.arguments(), null));
            } else if (!(block instanceof ContentBlock.Image || block instanceof ContentBlock.Unknown)) {
                // A model never sends images, and an unknown block is kept for the file, not replayed.
                throw new IllegalStateException("unhandled assistant block: " + block);
            }
        }
        return out;
    }

    private static List<ContentBlock> asUserContent(AgentMessage message, boolean images) {
        if (message instanceof AgentMessage.User user) {
            return userContent(user.content(), images);
        }
        if (message instanceof AgentMessage.BashExecution bash) {
            return Boolean.TRUE.equals(bash.excludeFromContext()) ? null : text(bashText(bash));
        }
        if (message instanceof AgentMessage.CompactionSummary summary) {
            return text(COMPACTION_PREAMBLE + "\n\n<summary>\n" + summary.summary() + "\n</summary>");
        }
        if (message instanceof AgentMessage.BranchSummary summary) {
            return text(BRANCH_PREAMBLE + "\n\n<summary>\n" + summary.summary() + "\n</summary>");
        }
        if (message instanceof AgentMessage.Custom custom) {
            return customContent(custom.content(), images);
        }
        if (message instanceof AgentMessage.Unknown) {
            return null; // unknown roles never reach a model
        }
        // Assistant replies and tool results are turned into turns of their own by convert.
        throw new IllegalStateException("unhandled message as user content: " + message);
    }

    /** Text and image blocks; empty text dropped, images replaced by a note for text-only models. */
    private static List<ContentBlock> userContent(List<ContentBlock> content, boolean images) {
        List<ContentBlock> out = new ArrayList<>();
        for (ContentBlock block : content) {
            if (block instanceof ContentBlock.Text text) {
                if (text.text() != null && !text.text().isEmpty()) {
                    out.add(new ContentBlock.Text(text.text()));
                }
            } else if (block instanceof ContentBlock.Image image) {
                out.add(images ? image : new ContentBlock.Text(IMAGE_OMITTED));
            } else if (!(block instanceof ContentBlock.Thinking || block instanceof ContentBlock.ToolCall
                    || block instanceof ContentBlock.Unknown)) {
                // Thinking and tool calls belong to replies; an unknown block is kept for the file only.
                throw new IllegalStateException("unhandled user block: " + block);
            }
        }
        return out;
    }

    private static List<ContentBlock> customContent(JsonNode content, boolean images) {
        if (content == null || content.isNull()) {
            return null;
        }
        if (content.isTextual()) {
            return text(content.textValue());
        }
        List<ContentBlock> out = new ArrayList<>();
        if (content.isArray()) {
            for (JsonNode block : content) {
                String type = block.path("type").asText();
                if (type.equals("text") && block.path("text").isTextual()) {
                    out.add(new ContentBlock.Text(block.path("text").textValue()));
                } else if (type.equals("image") && block.path("data").isTextual()) {
                    out.add(new ContentBlock.Image(block.path("data").textValue(),
                            block.path("mimeType").asText("image/png")));
                }
            }
            return userContent(out, images);
        }
        return text(content.toString());
    }

    /** pi's rendering of a {@code bash} command run by the user. */
    static String bashText(AgentMessage.BashExecution bash) {
        StringBuilder text = new StringBuilder("Ran `").append(bash.command()).append("`\n");
        if (bash.output() != null && !bash.output().isEmpty()) {
            text.append("```\n").append(bash.output()).append("\n```");
        } else {
            text.append("(no output)");
        }
        if (bash.cancelled()) {
            text.append("\n\n(command cancelled)");
        } else if (bash.exitCode() != null && bash.exitCode() != 0) {
            text.append("\n\nCommand exited with code ").append(bash.exitCode());
        }
        if (bash.truncated() && bash.fullOutputPath() != null) {
            text.append("\n\n[Output truncated. Full output: ").append(bash.fullOutputPath()).append(']');
        }
        return text.toString();
    }

    private static List<ContentBlock> text(String text) {
        return text == null || text.isEmpty() ? null : List.of(new ContentBlock.Text(text));
    }
}
