package dev.agentd.server.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.Json;
import dev.agentd.protocol.jsonl.JsonlReader;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads stdin as JSONL until it ends and parses each line once; shared by both dialects, which
 * only decide what a parsed line means and how a broken one is answered.
 */
final class CommandLines {
    private static final Logger LOG = LoggerFactory.getLogger(CommandLines.class);

    /** What a dialect does with a line. */
    interface Handler {
        /**
         * A line that is not JSON, or one over the limit (skipped without being buffered, so
         * {@code bytes} is null); {@code problem} says which.
         */
        void invalid(String problem, byte[] bytes);

        void json(JsonNode node);
    }

    private CommandLines() {}

    /** The first line of a JSON parse failure, for the error a client sees. */
    private static String parseProblem(IOException e) {
        String message = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        if (message == null) {
            return "invalid JSON";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** Blocks until end of input (or a read failure, which is logged). */
    static void read(InputStream in, int maxLineBytes, Handler handler) {
        JsonlReader reader = new JsonlReader(in, maxLineBytes);
        while (true) {
            JsonlReader.Line line;
            try {
                line = reader.next();
            } catch (IOException e) {
                LOG.warn("stdin failed: {}", e.getMessage());
                return;
            }
            if (line == null) {
                return;
            }
            if (line instanceof JsonlReader.Line.TooLong tooLong) {
                handler.invalid("line of " + tooLong.length() + " bytes exceeds the limit of " + maxLineBytes
                        + " bytes", null);
            } else if (line instanceof JsonlReader.Line.Text text) {
                JsonNode node;
                try {
                    node = Json.mapper().readTree(text.bytes());
                } catch (IOException e) {
                    handler.invalid(parseProblem(e), text.bytes());
                    continue;
                }
                handler.json(node);
            }
        }
    }
}
