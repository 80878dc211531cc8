package dev.agentd.server.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.model.Model;
import dev.agentd.server.testing.Replies;
import dev.agentd.server.testing.Samples;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The provider-neutral context every HTTP API is built from. */
class ContextConverterTest {
    private static final Model MODEL = new Model("m-1", "M", "anthropic-messages", "anthropic", "https://x", true,
            List.of("text", "image"), Model.Cost.FREE, 200_000, 8_192);
    private static final Model TEXT_ONLY = new Model("m-2", "M2", "openai-completions", "openai", "https://y", false,
            List.of("text"), Model.Cost.FREE, 128_000, 8_192);
    private static final ContentBlock.Image IMAGE = new ContentBlock.Image("aGVsbG8=", "image/png");

    private static AgentMessage.User user(ContentBlock... content) {
        return new AgentMessage.User(List.of(content), 1);
    }

    private static AgentMessage.Assistant assistant(Model from, StopReason stop, ContentBlock... content) {
        return Replies.reply().content(content).from(from).failed(stop, stop.failed() ? "boom" : null).at(2)
                .build();
    }

    private static ContentBlock.ToolCall call(String id) {
        ObjectNode args = Json.mapper().createObjectNode().put("path", id + ".txt");
        return new ContentBlock.ToolCall(id, "read", args);
    }

    private static AgentMessage.ToolResult result(String id, String text) {
        return new AgentMessage.ToolResult(id, "read", List.of(new ContentBlock.Text(text)), null, false, 3);
    }

    @Test
    void failedAndAbortedRepliesAreSkippedWithTheResultsOfTheirCalls() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(List.of(
                user(new ContentBlock.Text("hi")),
                assistant(MODEL, StopReason.ERROR, new ContentBlock.Text("partial"), call("c0")),
                result("c0", "orphan result"),
                assistant(MODEL, StopReason.ABORTED, new ContentBlock.Text("cut")),
                assistant(MODEL, StopReason.STOP, new ContentBlock.Text("answer"))), MODEL);
        assertEquals(List.of(
                new ContextConverter.UserTurn(List.of(new ContentBlock.Text("hi"))),
                new ContextConverter.AssistantTurn(List.of(new ContentBlock.Text("answer")))), turns);
    }

    @Test
    void consecutiveResultsFormOneGroupAndAnUnansweredCallGetsAPlaceholder() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(List.of(
                user(new ContentBlock.Text("go")),
                assistant(MODEL, StopReason.TOOL_USE, call("c1"), call("c2"), call("c3")),
                result("c1", "one"),
                result("c3", "three"),
                user(new ContentBlock.Text("steer"))), MODEL);
        ContextConverter.ToolResults group = (ContextConverter.ToolResults) turns.get(2);
        assertEquals(List.of("c1", "c3", "c2"), group.results().stream()
                .map(ContextConverter.Result::toolCallId).toList());
        ContextConverter.Result placeholder = group.results().get(2);
        assertEquals(List.of(new ContentBlock.Text("No result provided")), placeholder.content());
        assertEquals(true, placeholder.isError());
        assertEquals(new ContextConverter.UserTurn(List.of(new ContentBlock.Text("steer"))), turns.get(3));
    }

    @Test
    void aCallAtTheVeryEndIsAnsweredByAPlaceholderToo() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(List.of(
                user(new ContentBlock.Text("go")), assistant(MODEL, StopReason.TOOL_USE, call("c1"))), MODEL);
        assertEquals(3, turns.size());
        assertEquals("c1", ((ContextConverter.ToolResults) turns.get(2)).results().get(0).toolCallId());
    }

    @Test
    void bashExecutionBecomesUserTextUnlessExcluded() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(List.of(
                new AgentMessage.BashExecution("ls", "a\nb", 0, false, false, null, null, 1),
                new AgentMessage.BashExecution("false", "", 1, false, false, null, null, 2),
                new AgentMessage.BashExecution("secret", "x", 0, false, false, null, true, 3)), MODEL);
        assertEquals(List.of(
                new ContextConverter.UserTurn(List.of(new ContentBlock.Text("Ran `ls`\n```\na\nb\n```"))),
                new ContextConverter.UserTurn(List.of(new ContentBlock.Text(
                        "Ran `false`\n(no output)\n\nCommand exited with code 1")))), turns);
    }

    @Test
    void summariesBecomeWrappedUserText() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(List.of(
                new AgentMessage.CompactionSummary("we did X", 1000, 1),
                new AgentMessage.BranchSummary("tried Y", "abcd1234", 2)), MODEL);
        String compaction = ((ContentBlock.Text) ((ContextConverter.UserTurn) turns.get(0)).content().get(0)).text();
        String branch = ((ContentBlock.Text) ((ContextConverter.UserTurn) turns.get(1)).content().get(0)).text();
        assertEquals(true, compaction.endsWith("\n\n<summary>\nwe did X\n</summary>"));
        assertEquals(true, branch.endsWith("\n\n<summary>\ntried Y\n</summary>"));
        assertEquals(1, compaction.lines().takeWhile(line -> !line.isEmpty()).count(), "one-line preamble");
    }

    @Test
    void thinkingIsKeptOnlyForTheModelThatSignedIt() {
        ContentBlock.Thinking signed = new ContentBlock.Thinking("hmm", "sig", null);
        ContentBlock.Thinking redacted = new ContentBlock.Thinking("", "opaque", true);
        AgentMessage.Assistant own = assistant(MODEL, StopReason.STOP, signed, redacted, new ContentBlock.Text("a"));
        assertEquals(List.of(signed, redacted, new ContentBlock.Text("a")),
                ((ContextConverter.AssistantTurn) ContextConverter.convert(List.of(own), MODEL).get(0)).content());
        AgentMessage.Assistant foreign = assistant(TEXT_ONLY, StopReason.STOP, signed, redacted,
                new ContentBlock.Text("a"));
        assertEquals(List.of(new ContentBlock.Text("hmm"), new ContentBlock.Text("a")),
                ((ContextConverter.AssistantTurn) ContextConverter.convert(List.of(foreign), MODEL).get(0)).content());
    }

    @Test
    void imagesBecomeANoteForTextOnlyModelsAndEmptyTextIsDropped() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(List.of(
                user(new ContentBlock.Text(""), IMAGE),
                assistant(MODEL, StopReason.STOP, new ContentBlock.Text("  ")),
                user(new ContentBlock.Text("x"))), TEXT_ONLY);
        assertEquals(List.of(
                new ContextConverter.UserTurn(List.of(new ContentBlock.Text(ContextConverter.IMAGE_OMITTED))),
                new ContextConverter.UserTurn(List.of(new ContentBlock.Text("x")))), turns);
        assertEquals(List.of(new ContextConverter.UserTurn(List.of(IMAGE))),
                ContextConverter.convert(List.of(user(IMAGE)), MODEL));
    }

    /** Every message and block kind is converted or named as left out; every kind of turn comes out. */
    @Test
    void everyMessageAndBlockKindIsHandled() {
        List<ContextConverter.Turn> turns = ContextConverter.convert(Samples.historyOfEveryKind(MODEL), MODEL);
        assertEquals(Set.of(ContextConverter.Turn.class.getPermittedSubclasses()),
                turns.stream().map(Object::getClass).collect(Collectors.toSet()));
        List<AgentMessage> unknownKind = Arrays.asList((AgentMessage) null);
        assertThrows(IllegalStateException.class, () -> ContextConverter.convert(unknownKind, MODEL));
    }
}
