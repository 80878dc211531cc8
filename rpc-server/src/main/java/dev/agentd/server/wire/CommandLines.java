package dev.agentd.server.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.json.JsonTrees;
import dev.agentd.protocol.jsonl.JsonlReader;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads stdin as JSONL until it ends and parses each line once; shared by every dialect, which
 * only decide what a parsed line means and how a broken one is answered. The reader cannot die
 * of one line: anything a line's handling throws, {@link Error}s included, is logged and
 * answered as an error for that line, and the next line is read.
 */
public final class CommandLines {
    private static final Logger LOG = LoggerFactory.getLogger(CommandLines.class);

    /** What a dialect does with a line. */
    public interface Handler {
        /**
         * A line that is not JSON, or one over the limit (skipped without being buffered, so
         * {@code bytes} is null); {@code problem} says which.
         */
        void invalid(String problem, byte[] bytes);

        void json(JsonNode node);

        /**
         * Handling the line threw {@code error}; {@code node} is its JSON when it parsed (else
         * null) and {@code bytes} its raw text when it was buffered (else null).
         */
        void failed(Throwable error, byte[] bytes, JsonNode node);
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
    public static void read(InputStream in, int maxLineBytes, Handler handler) {
        JsonlReader reader = new JsonlReader(in, maxLineBytes);
        while (true) {
            JsonlReader.Line line;
            try {
                line = reader.next();
            } catch (IOException e) {
                LOG.warn("stdin failed: {}", e.getMessage());
                return;
            } catch (Throwable e) { // framing state is unknown now: end as on EOF rather than spin
                LOG.error("reading stdin failed: {}", describe(e));
                return;
            }
            if (line == null) {
                return;
            }
            handleSafely(line, maxLineBytes, handler);
        }
    }

    private static void handleSafely(JsonlReader.Line line, int maxLineBytes, Handler handler) {
        byte[] bytes = line instanceof JsonlReader.Line.Text text ? text.bytes() : null;
        JsonNode[] parsed = new JsonNode[1];
        try {
            handle(line, maxLineBytes, handler, parsed);
        } catch (Throwable error) { // StackOverflowError and OutOfMemoryError too: only this line is lost
            LOG.error("handling a command line failed: {}", describe(error));
            try {
                handler.failed(error, bytes, parsed[0]);
            } catch (Throwable again) {
                LOG.error("answering the failed line failed too: {}", describe(again));
            }
        }
    }

    private static void handle(JsonlReader.Line line, int maxLineBytes, Handler handler, JsonNode[] parsed) {
        if (line instanceof JsonlReader.Line.TooLong tooLong) {
            handler.invalid("line of " + tooLong.length() + " bytes exceeds the limit of " + maxLineBytes
                    + " bytes", null);
        } else if (line instanceof JsonlReader.Line.Text text) {
            JsonNode node;
            try {
                node = JsonTrees.read(text.bytes()); // as the mapper's readTree, without waiting for it
            } catch (IOException e) {
                handler.invalid(parseProblem(e), text.bytes());
                return;
            }
            parsed[0] = node;
            handler.json(node);
        } else {
            throw new IllegalStateException("unhandled line: " + line.getClass().getSimpleName());
        }
    }

    /** The type and where it was thrown; never the message, which may quote the line. */
    static String describe(Throwable error) {
        StackTraceElement[] trace = error.getStackTrace();
        return error.getClass().getName() + (trace.length > 0 ? " at " + trace[0] : "");
    }
}
