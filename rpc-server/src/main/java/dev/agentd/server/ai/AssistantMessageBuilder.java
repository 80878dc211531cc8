package dev.agentd.server.ai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.event.AssistantMessageEvent;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.protocol.model.Model;
import java.util.ArrayList;
import java.util.List;

/**
 * Accumulates one streamed assistant reply and reports each change to a {@link StreamListener}.
 * Every provider drives the same builder, so event shapes (start/delta/end per block,
 * contentIndex, the partial snapshot) are identical whatever the upstream API.
 * Not thread-safe: the streaming thread owns it.
 *
 * <p>It is also where a reply's size is bounded ({@link ReplyBound}, issue 22): content past the
 * bound is dropped, {@link #cut} says so, and the caller ends the exchange and fails the reply with
 * {@link #tooLarge}.
 */
public final class AssistantMessageBuilder {
    private final Model model;
    private final long timestamp;
    private final StreamListener listener;
    private final ReplyBound bound;
    private final List<Block> blocks = new ArrayList<>();
    private Usage usage = Usage.ZERO;
    private String responseModel;
    private boolean started;
    private long bytes;
    private boolean cut;

    public AssistantMessageBuilder(Model model, long timestamp, StreamListener listener) {
        this(model, timestamp, listener, ReplyBound.NONE);
    }

    public AssistantMessageBuilder(Model model, long timestamp, StreamListener listener, ReplyBound bound) {
        this.model = model;
        this.timestamp = timestamp;
        this.listener = listener;
        this.bound = bound;
    }

    /** True once content past the bound arrived (and was dropped): the reply must end now. */
    public boolean cut() {
        return cut;
    }

    /** The error a cut reply ends with: final, never retried (a retry would stream the same). */
    public ProviderError tooLarge() {
        return new ProviderError(bound.errorMessage(), null, ErrorTypes.REPLY_TOO_LARGE, null, false);
    }

    /** Reports the start of the reply (idempotent). */
    public void start() {
        if (!started) {
            started = true;
            listener.onStart(snapshot(StopReason.PENDING, null));
        }
    }

    public int startText() {
        return open(new Block(Kind.TEXT), "text_start");
    }

    public void textDelta(int index, String delta) {
        append(index, delta, "text_delta");
    }

    public void endText(int index) {
        close(index, "text_end");
    }

    public int startThinking() {
        return open(new Block(Kind.THINKING), "thinking_start");
    }

    public void thinkingDelta(int index, String delta) {
        append(index, delta, "thinking_delta");
    }

    public void endThinking(int index) {
        close(index, "thinking_end");
    }

    public void thinkingSignature(int index, String signature) {
        if (!admit(signature)) {
            return;
        }
        Block block = blocks.get(index);
        block.signature = block.signature == null ? signature : block.signature + signature;
    }

    /**
     * Sets (replaces) the signature of a text, thinking or tool-call block, replayed with it on the
     * next turn: Gemini's {@code thoughtSignature}, which may ride on any part, the latest one
     * winning; openai-responses' message item id on a text block. Anthropic's signature deltas
     * append instead ({@link #thinkingSignature}).
     */
    public void signature(int index, String signature) {
        if (signature == null || signature.isEmpty() || !admit(signature)) {
            return;
        }
        blocks.get(index).signature = signature;
    }

    public void redactedThinking(String data) {
        if (!admit(data)) {
            return;
        }
        Block block = new Block(Kind.THINKING);
        block.redacted = true;
        block.signature = data;
        int index = open(block, "thinking_start");
        close(index, "thinking_end");
    }

    public int startToolCall(String id, String name) {
        Block block = new Block(Kind.TOOL_CALL);
        block.id = id;
        block.name = name;
        return open(block, "toolcall_start");
    }

    /** Appends a raw fragment of the tool call's JSON arguments. */
    public void toolCallDelta(int index, String jsonFragment) {
        append(index, jsonFragment, "toolcall_delta");
    }

    public void endToolCall(int index) {
        Block block = blocks.get(index);
        block.arguments = parseArguments(block.text.toString());
        close(index, "toolcall_end");
    }

    /** The index of the last block, or -1. */
    public int lastIndex() {
        return blocks.size() - 1;
    }

    public void usage(Usage usage) {
        this.usage = usage;
    }

    public Usage usage() {
        return usage;
    }

    /**
     * The model the provider reported answering. Kept as {@code responseModel} only when it differs
     * from the requested model's id, as pi's Anthropic and chat-completions providers do; the first
     * one reported wins.
     */
    public void reportedModel(String reported) {
        if (responseModel == null && reported != null && !reported.isEmpty() && !reported.equals(model.id())) {
            responseModel = TextBounds.cut(reported, TextBounds.MAX_REASON_CHARS);
        }
    }

    /** Closes any open block and returns the finished message. */
    public AgentMessage.Assistant finish(StopReason stopReason) {
        closeOpenBlocks();
        return snapshot(stopReason, null);
    }

    /** The failed message: partial content and usage kept, open blocks closed silently. */
    public AgentMessage.Assistant fail(ProviderError error) {
        return snapshot(StopReason.ERROR, error);
    }

    /**
     * The aborted message (SPEC §4: "Request was aborted"). An open text or thinking block is closed
     * with its end event first, as pi 1.6 does, so a client's display ends on that block's content;
     * an open tool call is not announced as ended (its arguments are incomplete).
     */
    public AgentMessage.Assistant aborted() {
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            if (!block.closed && block.kind != Kind.TOOL_CALL) {
                close(i, block.kind == Kind.TEXT ? "text_end" : "thinking_end");
            }
        }
        return snapshot(StopReason.ABORTED, ProviderError.of("Request was aborted"));
    }

    private int open(Block block, String eventType) {
        start();
        blocks.add(block);
        int index = blocks.size() - 1;
        if (block.kind == Kind.TOOL_CALL) {
            // pi 1.x names the call on its start, so a client can show it before any argument arrives.
            listener.onEvent(new AssistantMessageEvent(eventType, index, null, null, null, partialOrNull(),
                    block.id, block.name), usage);
        } else {
            emit(eventType, index, null, null, null);
        }
        return index;
    }

    private void append(int index, String delta, String eventType) {
        if (delta == null || delta.isEmpty() || !admit(delta)) {
            return;
        }
        Block block = blocks.get(index);
        block.text.append(delta);
        if (block.kind == Kind.TOOL_CALL && listener.wantsPartials()) {
            block.arguments = parseArguments(block.text.toString());
        }
        emit(eventType, index, delta, null, null);
    }

    /** Counts {@code text} against the bound; false (and {@link #cut}) once it would pass it. */
    private boolean admit(String text) {
        if (cut) {
            return false;
        }
        if (bound == ReplyBound.NONE || text == null) {
            return true;
        }
        long more = ReplyBound.utf8Bytes(text);
        if (more > bound.maxBytes() - bytes) {
            cut = true;
            return false;
        }
        bytes += more;
        return true;
    }

    private void close(int index, String eventType) {
        Block block = blocks.get(index);
        if (block.closed) {
            return;
        }
        block.closed = true;
        if (block.kind == Kind.TOOL_CALL) {
            emit(eventType, index, null, null, (ContentBlock.ToolCall) block.toContent());
        } else {
            emit(eventType, index, null, block.text.toString(), null);
        }
    }

    private void closeOpenBlocks() {
        for (int i = 0; i < blocks.size(); i++) {
            Block block = blocks.get(i);
            if (!block.closed) {
                if (block.kind == Kind.TOOL_CALL) {
                    endToolCall(i);
                } else {
                    close(i, block.kind == Kind.TEXT ? "text_end" : "thinking_end");
                }
            }
        }
    }

    private void emit(String type, int index, String delta, String content, ContentBlock.ToolCall toolCall) {
        listener.onEvent(new AssistantMessageEvent(type, index, delta, content, toolCall, partialOrNull()), usage);
    }

    private AgentMessage.Assistant partialOrNull() {
        return listener.wantsPartials() ? snapshot(StopReason.PENDING, null) : null;
    }

    private AgentMessage.Assistant snapshot(StopReason stopReason, ProviderError error) {
        List<ContentBlock> content = new ArrayList<>(blocks.size());
        for (Block block : blocks) {
            content.add(block.toContent());
        }
        if (error == null) {
            return new AgentMessage.Assistant(content, model.api(), model.provider(), model.id(), usage, stopReason,
                    null, timestamp, null, null, null, null, responseModel);
        }
        return new AgentMessage.Assistant(content, model.api(), model.provider(), model.id(), usage, stopReason,
                error.message(), timestamp, error.status(), error.type(), error.retryAfterMs(), error.shouldRetry(),
                responseModel);
    }

    /** Best-effort parse: the object so far if it is complete JSON, else {} (pi does the same). */
    private static JsonNode parseArguments(String json) {
        if (json.isBlank()) {
            return Json.mapper().createObjectNode();
        }
        try {
            JsonNode parsed = Json.mapper().readTree(json);
            return parsed instanceof ObjectNode ? parsed : Json.mapper().createObjectNode();
        } catch (Exception e) {
            return Json.mapper().createObjectNode();
        }
    }

    private enum Kind { TEXT, THINKING, TOOL_CALL }

    private static final class Block {
        final Kind kind;
        final StringBuilder text = new StringBuilder();
        String signature;
        boolean redacted;
        String id;
        String name;
        JsonNode arguments;
        boolean closed;

        Block(Kind kind) {
            this.kind = kind;
        }

        ContentBlock toContent() {
            return switch (kind) {
                case TEXT -> new ContentBlock.Text(text.toString(), signature);
                case THINKING -> new ContentBlock.Thinking(text.toString(), signature, redacted ? Boolean.TRUE : null);
                case TOOL_CALL -> new ContentBlock.ToolCall(id, name,
                        arguments == null ? Json.mapper().createObjectNode() : arguments, signature);
            };
        }
    }
}
