package dev.agentd.server.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.server.testing.Replies;
import java.util.List;
import org.junit.jupiter.api.Test;

class FileOpsTest {

    private static AgentMessage.Assistant calls(String... nameAndPath) {
        List<ContentBlock> blocks = new java.util.ArrayList<>();
        for (int i = 0; i < nameAndPath.length; i += 2) {
            ObjectNode args = JsonNodeFactory.instance.objectNode().put("path", nameAndPath[i + 1]);
            blocks.add(new ContentBlock.ToolCall("c" + i, nameAndPath[i], args));
        }
        return Replies.reply().content(blocks).from("a", "p", "m").stop(StopReason.TOOL_USE).build();
    }

    @Test
    void readAndChangedPathsAreListedSortedAndMergedWithThePreviousDetails() throws Exception {
        var previous = Json.mapper().readTree("{\"readFiles\":[\"old.txt\"],\"modifiedFiles\":[\"gone.txt\"]}");
        var details = FileOps.details(List.of(calls("read", "b.txt", "read", "a.txt", "edit", "a.txt",
                "write", "c.txt", "bash", "x.sh")), previous);
        assertEquals("{\"readFiles\":[\"b.txt\",\"old.txt\"],\"modifiedFiles\":[\"a.txt\",\"c.txt\",\"gone.txt\"]}",
                details.toString());
    }

    @Test
    void noToolCallsGiveEmptyLists() {
        assertEquals("{\"readFiles\":[],\"modifiedFiles\":[]}", FileOps.details(List.of(), null).toString());
    }
}
