package dev.agentd.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlWriter;
import dev.agentd.server.wire.JsonRpcError;
import dev.agentd.server.wire.RpcOutput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each dialect answers a line whose handling threw, and reads on (the loop is wire.CommandLines). */
class LineFailuresTest {
    private static InputStream input(String... lines) {
        return new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Through the rpc dialect: a router that throws still yields one response carrying the id. */
    @Test
    void theRpcDialectAnswersAFailedLineWithItsIdAndKeepsReading() throws IOException {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        RpcOutput out = new RpcOutput(new JsonlWriter(stdout, Json.mapper()), () -> { });
        // No router: dispatching any decoded command throws.
        new RpcMode(input("{\"type\":\"get_state\",\"id\":\"boom\"}", "{\"type\":\"get_state\",\"id\":\"" + "x".repeat(5000)
                + "\" oops"), out, null, 1 << 20).serve();
        String[] lines = stdout.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length);
        JsonNode first = Json.mapper().readTree(lines[0]);
        assertEquals("boom", first.path("id").asText());
        assertEquals("get_state", first.path("command").asText());
        assertEquals("Internal error while handling the command: NullPointerException", first.path("error").asText());
        JsonNode second = Json.mapper().readTree(lines[1]);
        assertEquals("x".repeat(5000), second.path("id").asText(), "the long id of a broken line is recovered");
        assertEquals("parse", second.path("command").asText());
    }

    /** Writing the reply throws an Error once (as a too-deep serialization would): the line still gets one. */
    @Test
    void theJsonRpcDialectAnswersAFailedLineWithAnInternalError() throws IOException {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        OutputStream failingOnce = new OutputStream() {
            private boolean failed;

            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                if (!failed) {
                    failed = true;
                    throw new StackOverflowError();
                }
                stdout.write(bytes, offset, length);
            }
        };
        RpcOutput out = new RpcOutput(new JsonlWriter(failingOnce, Json.mapper()), () -> { });
        new JsonRpcMode(input("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"no_such\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"no_such\"}"), out, null, 4096).serve();
        String[] lines = stdout.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length, stdout.toString(StandardCharsets.UTF_8));
        JsonNode reply = Json.mapper().readTree(lines[0]);
        assertEquals(7, reply.path("id").asInt());
        assertEquals(JsonRpcError.INTERNAL_ERROR, reply.path("error").path("code").asInt());
        assertEquals("Internal error: could not write a reply record: StackOverflowError",
                reply.path("error").path("message").asText(), "the writer answers in the record's place (issue 22)");
        assertNull(reply.get("result"));
        assertEquals(JsonRpcError.METHOD_NOT_FOUND, Json.mapper().readTree(lines[1]).path("error").path("code").asInt());
    }
}
