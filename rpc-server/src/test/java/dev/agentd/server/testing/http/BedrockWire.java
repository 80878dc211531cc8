package dev.agentd.server.testing.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

/** ConverseStream replies as AWS event-stream frames, encoded by AWS's own eventstream library. */
public final class BedrockWire {
    private BedrockWire() {}

    /** An {@code event} frame. */
    public static byte[] event(String type, String json) {
        return frame(":event-type", type, "event", json);
    }

    /** An {@code exception} frame, e.g. throttlingException. */
    public static byte[] exception(String type, String json) {
        return frame(":exception-type", type, "exception", json);
    }

    public static byte[] frame(String typeHeader, String type, String kind, String json) {
        Map<String, HeaderValue> headers = new LinkedHashMap<>();
        headers.put(":message-type", HeaderValue.fromString(kind));
        headers.put(typeHeader, HeaderValue.fromString(type));
        headers.put(":content-type", HeaderValue.fromString("application/json"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            new Message(headers, json.getBytes(StandardCharsets.UTF_8)).encode(out);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }

    public static byte[] concat(byte[]... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] f : frames) {
            out.writeBytes(f);
        }
        return out.toByteArray();
    }

    /** A complete text reply: messageStart, deltas, stops, metadata usage. */
    public static byte[] text(String text, int input, int output) {
        return concat(event("messageStart", "{\"role\":\"assistant\"}"),
                event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":" + quote(text) + "}}"),
                event("contentBlockStop", "{\"contentBlockIndex\":0}"),
                event("messageStop", "{\"stopReason\":\"end_turn\"}"),
                event("metadata", "{\"usage\":{\"inputTokens\":" + input + ",\"outputTokens\":" + output
                        + ",\"totalTokens\":" + (input + output) + "},\"metrics\":{\"latencyMs\":10}}"));
    }

    /** A toolUse reply whose input arrives in two fragments. */
    public static byte[] toolUse(String id, String name, String inputJson) {
        int half = inputJson.length() / 2;
        return concat(event("messageStart", "{\"role\":\"assistant\"}"),
                event("contentBlockStart", "{\"contentBlockIndex\":0,\"start\":{\"toolUse\":{\"toolUseId\":"
                        + quote(id) + ",\"name\":" + quote(name) + "}}}"),
                event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"toolUse\":{\"input\":"
                        + quote(inputJson.substring(0, half)) + "}}}"),
                event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"toolUse\":{\"input\":"
                        + quote(inputJson.substring(half)) + "}}}"),
                event("contentBlockStop", "{\"contentBlockIndex\":0}"),
                event("messageStop", "{\"stopReason\":\"tool_use\"}"),
                event("metadata", "{\"usage\":{\"inputTokens\":5,\"outputTokens\":5,\"totalTokens\":10}}"));
    }

    private static String quote(String text) {
        return dev.agentd.protocol.json.Json.mapper().getNodeFactory().textNode(text).toString();
    }
}
