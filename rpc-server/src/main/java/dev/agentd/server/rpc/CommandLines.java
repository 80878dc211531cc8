package dev.agentd.server.rpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.agentd.protocol.jsonl.JsonlReader;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads stdin as JSONL until it ends, handing each line to a dialect; shared by both dialects. */
final class CommandLines {
    private static final Logger LOG = LoggerFactory.getLogger(CommandLines.class);

    /** What a dialect does with a line. */
    interface Handler {
        /** A line over the limit was skipped without being buffered. */
        void tooLong(long length, int limit);

        void line(byte[] bytes);
    }

    private CommandLines() {}

    /** The first line of a JSON parse failure, for the error a client sees. */
    static String parseProblem(IOException e) {
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
                handler.tooLong(tooLong.length(), maxLineBytes);
            } else if (line instanceof JsonlReader.Line.Text text) {
                handler.line(text.bytes());
            }
        }
    }
}
