package dev.agentd.server.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.testing.Replies;
import java.util.List;
import org.junit.jupiter.api.Test;

class CutPointTest {
    static AgentMessage.User user(String text) {
        return new AgentMessage.User(List.of(new ContentBlock.Text(text)), 0);
    }

    static AgentMessage.Assistant reply(String text) {
        return Replies.reply().text(text).from("a", "p", "m").build();
    }

    static AgentMessage.Assistant toolCall() {
        return Replies.reply().content(new ContentBlock.ToolCall("c1", "read", JsonNodeFactory.instance.objectNode()))
                .from("a", "p", "m").stop(StopReason.TOOL_USE).build();
    }

    static AgentMessage.ToolResult result(String text) {
        return new AgentMessage.ToolResult("c1", "read", List.of(new ContentBlock.Text(text)), null, false, 0);
    }

    @Test
    void keepsAboutTheRequestedTokensOfRecentMessages() {
        List<AgentMessage> messages = List.of(user("x".repeat(400)), reply("y".repeat(400)), user("z".repeat(400)),
                reply("w".repeat(400)));
        assertEquals(2, CutPoint.find(messages, 0, 150), "two messages of 100 tokens each cover 150");
        assertEquals(3, CutPoint.find(messages, 0, 1));
        assertEquals(0, CutPoint.find(messages, 0, 10_000),
                "the window holds everything: the whole history is kept beside the summary (pi)");
    }

    @Test
    void aShortHistoryIsKeptWhole() {
        List<AgentMessage> messages = List.of(user("q1"), toolCall(), result("r"), reply("a1"), user("q2"),
                reply("overflowed"));
        assertEquals(0, CutPoint.find(messages, 0, 20_000));
        assertEquals(1, CutPoint.find(messages, 1, 20_000), "after a previous summary too");
    }

    @Test
    void nothingBeforeTheOnlyUserMessageCannotBeCompacted() {
        assertEquals(-1, CutPoint.find(List.of(user("x".repeat(40_000)), reply("overflowed")), 0, 20_000));
        assertEquals(-1, CutPoint.find(List.of(reply("old"), user("q")), 1, 20_000), "the user message is first");
    }

    @Test
    void neverStartsTheKeptPartAtAToolResult() {
        List<AgentMessage> messages = List.of(user("q".repeat(400)), toolCall(), result("r".repeat(400)),
                reply("done"));
        // the newest ~101 tokens reach back to the tool result; as in pi the cut moves forward to the
        // next valid start, the reply after it
        assertEquals(3, CutPoint.find(messages, 0, 101));
        assertEquals(1, CutPoint.find(messages, 0, 102), "the call itself is a valid start");
    }

    @Test
    void tooFewMessagesCannotBeCompacted() {
        assertEquals(-1, CutPoint.find(List.of(user("only")), 0, 1));
        assertEquals(-1, CutPoint.find(List.of(), 0, 1));
    }

    @Test
    void contextTokensUseTheLastReplysUsagePlusEstimatesAfterIt() {
        AgentMessage.Assistant counted = Replies.reply().text("a").from("a", "p", "m")
                .usage(new Usage(1000, 200, 0, 0, 1200, null)).build();
        assertEquals(1200 + 100, TokenEstimate.contextTokens(List.of(user("q"), counted, user("x".repeat(400)))));
        assertEquals(100 + 1, TokenEstimate.contextTokens(List.of(user("x".repeat(400)), user("q"))));
    }
}
