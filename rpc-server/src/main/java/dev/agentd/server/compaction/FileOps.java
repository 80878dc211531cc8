package dev.agentd.server.compaction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.ContentBlock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A compaction's {@code details} as pi 0.73 writes them: {@code {readFiles, modifiedFiles}}, the
 * paths the summarized messages' tool calls read or changed, added to the previous compaction's, so
 * the files a session touched survive any number of compactions. Sorted, so the output is stable.
 */
public final class FileOps {
    private static final Set<String> READS = Set.of("read");
    private static final Set<String> WRITES = Set.of("write", "edit");

    private FileOps() {}

    /** The details for {@code summarized}, merged with {@code previous} (a former compaction's, or null). */
    public static ObjectNode details(List<AgentMessage> summarized, JsonNode previous) {
        Set<String> read = new TreeSet<>(strings(previous, "readFiles"));
        Set<String> modified = new TreeSet<>(strings(previous, "modifiedFiles"));
        for (AgentMessage message : summarized) {
            if (!(message instanceof AgentMessage.Assistant reply)) {
                continue;
            }
            for (ContentBlock block : reply.content()) {
                if (block instanceof ContentBlock.ToolCall call && call.arguments() != null) {
                    JsonNode path = call.arguments().path("path");
                    if (path.isTextual()) {
                        if (READS.contains(call.name())) {
                            read.add(path.textValue());
                        } else if (WRITES.contains(call.name())) {
                            modified.add(path.textValue());
                        }
                    }
                }
            }
        }
        read.removeAll(modified); // a file that was changed is listed once, as modified
        ObjectNode details = JsonNodeFactory.instance.objectNode();
        ArrayNode readFiles = details.putArray("readFiles");
        read.forEach(readFiles::add);
        ArrayNode modifiedFiles = details.putArray("modifiedFiles");
        modified.forEach(modifiedFiles::add);
        return details;
    }

    private static Set<String> strings(JsonNode node, String field) {
        Set<String> out = new TreeSet<>();
        if (node != null) {
            for (JsonNode item : node.path(field)) {
                if (item.isTextual()) {
                    out.add(item.textValue());
                }
            }
        }
        return out;
    }
}
