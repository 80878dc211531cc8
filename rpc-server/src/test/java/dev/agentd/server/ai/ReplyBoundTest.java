package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.ErrorClassifier;
import dev.agentd.server.testing.Replies;
import dev.agentd.server.testing.http.RecordingListener;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, N2: a reply is bounded by the model's maxTokens (generously) and an absolute byte cap;
 * past it the builder drops content, says it was cut, and the reply fails with a final error.
 */
class ReplyBoundTest {
    private static final long MIB = 1024 * 1024;

    private static Model model(long maxTokens) {
        return new Model("m", "M", "openai-completions", "p", "http://x", true, List.of("text"), Model.Cost.FREE,
                200_000, maxTokens);
    }

    @Test
    void theModelsMaxTokensBoundsTheReplyWithAMarginAndTheCapBoundsIt() {
        ReplyBound tokens = ReplyBound.of(model(65_536), 32 * MIB);
        assertEquals(65_536 * 16 + 256 * 1024, tokens.maxBytes());
        assertEquals("reply too large: over 1310720 bytes (16 bytes per token of the model's maxTokens 65536)",
                tokens.errorMessage());

        ReplyBound cap = ReplyBound.of(model(4_000_000), 32 * MIB);
        assertEquals(32 * MIB, cap.maxBytes(), "64 MB by tokens: the cap is lower");
        assertEquals("reply too large: over 32 MiB (retry.provider.maxReplyBytes)", cap.errorMessage());
        assertEquals(cap, ReplyBound.of(model(0), 32 * MIB), "no maxTokens known: the cap alone");
        assertEquals(cap, ReplyBound.of(model(Long.MAX_VALUE), 32 * MIB), "no overflow");
    }

    @Test
    void utf8BytesCountsAsTheEncoderDoes() {
        String text = "a\u00e9\u20ac\ud83d\ude00 x"; // 1 + 2 + 3 + 4 + 1 + 1
        assertEquals(text.getBytes(StandardCharsets.UTF_8).length, ReplyBound.utf8Bytes(text));
    }

    @Test
    void contentPastTheBoundIsDroppedAndTheReplyFailsFinally() {
        RecordingListener listener = new RecordingListener(false);
        ReplyBound bound = new ReplyBound(10, "10 bytes (test)");
        AssistantMessageBuilder reply = new AssistantMessageBuilder(model(0), 1L, listener, bound);
        int text = reply.startText();
        reply.textDelta(text, "12345");
        int args = reply.startToolCall("t1", "write");
        reply.toolCallDelta(args, "{\"a\":");
        assertFalse(reply.cut(), "exactly at the bound: text and tool-call arguments count together");
        reply.toolCallDelta(args, "1");
        assertTrue(reply.cut());
        reply.textDelta(text, "more");
        assertEquals(List.of("text_start", "text_delta", "toolcall_start", "toolcall_delta"), listener.types(),
                "nothing past the bound reaches the client");

        AgentMessage.Assistant failed = reply.fail(reply.tooLarge());
        assertEquals(StopReason.ERROR, failed.stopReason());
        assertEquals("reply too large: over 10 bytes (test)", failed.errorMessage());
        assertEquals(ErrorTypes.REPLY_TOO_LARGE, failed.errorType());
        assertEquals("12345", ((ContentBlock.Text) failed.content().get(0)).text(), "what came before is kept");
        assertEquals(ErrorClass.HARD, ErrorClassifier.classify(failed, 200_000).errorClass(),
                "final: a retry would stream the same again, and no circuit opens for it");
        AgentMessage.Assistant reloaded = Replies.reply().content(failed.content())
                .from(failed.api(), failed.provider(), failed.model()).usage(failed.usage())
                .error(failed.errorMessage()).at(1L).errorFields(null, ErrorTypes.REPLY_TOO_LARGE, null, null).build();
        assertFalse(isRetryable(reloaded, 200_000), "by its type alone, too");
    }

    @Test
    void signaturesCountAndAnUnboundedBuilderNeverCuts() {
        AssistantMessageBuilder bounded = new AssistantMessageBuilder(model(0), 1L, new RecordingListener(false),
                new ReplyBound(8, "8 bytes (test)"));
        int thinking = bounded.startThinking();
        bounded.thinkingSignature(thinking, "x".repeat(9));
        assertTrue(bounded.cut());

        AssistantMessageBuilder free = new AssistantMessageBuilder(model(1), 1L, new RecordingListener(false));
        free.textDelta(free.startText(), "y".repeat(1_000_000));
        assertFalse(free.cut());
    }

    /** A transient failure a same-model retry may cure (SPEC §5.2). */
    private static boolean isRetryable(AgentMessage.Assistant message, long contextWindow) {
        return ErrorClassifier.classify(message, contextWindow).errorClass().retriedOnSameModel();
    }
}
