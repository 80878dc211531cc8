package dev.agentd.server.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.jsonl.JsonlReader;
import dev.agentd.server.testing.SealedCases;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The shared stdin loop survives whatever handling one line throws, Errors included. */
class CommandLinesTest {
    private static InputStream input(String... lines) {
        return new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anErrorInOneLineIsReportedForThatLineAndTheNextLineIsRead() {
        List<String> seen = new ArrayList<>();
        CommandLines.read(input("{\"n\":1}", "{broken", "{\"n\":3}"), 4096, new CommandLines.Handler() {
            @Override
            public void invalid(String problem, byte[] bytes) {
                seen.add("invalid");
                throw new OutOfMemoryError("simulated");
            }

            @Override
            public void json(JsonNode node) {
                seen.add("json " + node.path("n").asInt());
                if (node.path("n").asInt() == 1) {
                    throw new StackOverflowError();
                }
            }

            @Override
            public void failed(Throwable error, byte[] bytes, JsonNode node) {
                seen.add("failed " + error.getClass().getSimpleName() + " " + (node == null ? "raw "
                        + new String(bytes, StandardCharsets.UTF_8) : "node " + node.path("n").asInt()));
                if (node == null) {
                    throw new IllegalStateException("answering fails too");
                }
            }
        });
        assertEquals(List.of("json 1", "failed StackOverflowError node 1", "invalid",
                "failed OutOfMemoryError raw {broken", "json 3"), seen);
    }

    /** Exhaustive (issue 23): a line is text or too long; any other kind is thrown as unhandled. */
    @Test
    void everyKindOfLineHasABranch() {
        assertEquals(Set.of("Text", "TooLong"), SealedCases.names(JsonlReader.Line.class),
                "CommandLines.handle handles these");
    }
}
