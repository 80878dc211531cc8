package dev.agentd.server.ai.bedrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.server.ai.sse.SseEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The frame reader against the AWS event-stream test vectors of awslabs/aws-c-event-stream
 * ({@code encoded/positive/empty_message} and {@code payload_no_headers}, and those bytes with a
 * broken prelude CRC, as in its negative vectors): the reader takes AWS's own framing, not only
 * what our test encoder writes.
 */
class AwsEventStreamVectorsTest {
    /** empty_message: total 16, no headers, prelude CRC 0x05c248eb, message CRC 0x7d98c8ff. */
    static final String EMPTY_MESSAGE = "AAAAEAAAAAAFwkjrfZjI/w==";
    /** payload_no_headers: the 13-byte payload {'foo':'bar'}. */
    static final String PAYLOAD_NO_HEADERS = "AAAAHQAAAAD9Uoxaeydmb28nOidiYXInfcNlOTY=";

    private static List<SseEvent> read(byte[] bytes) throws IOException {
        List<SseEvent> events = new ArrayList<>();
        AwsSupport.readFrames(new ByteArrayInputStream(bytes), event -> events.add(event));
        return events;
    }

    @Test
    void thePositiveVectorsDecode() throws IOException {
        List<SseEvent> empty = read(Base64.getDecoder().decode(EMPTY_MESSAGE));
        assertEquals(1, empty.size());
        assertEquals("", empty.get(0).data());
        List<SseEvent> payload = read(Base64.getDecoder().decode(PAYLOAD_NO_HEADERS));
        assertEquals(1, payload.size());
        assertEquals("{'foo':'bar'}", payload.get(0).data());
        assertEquals("event", payload.get(0).id(), "no :message-type header reads as an event");
    }

    @Test
    void aBrokenPreludeCrcOrMessageCrcIsRefused() {
        byte[] prelude = Base64.getDecoder().decode(PAYLOAD_NO_HEADERS);
        prelude[8] ^= 0x01;
        IOException bad = assertThrows(IOException.class, () -> read(prelude));
        assertTrue(bad.getMessage().contains("Malformed Bedrock event stream frame"), bad.getMessage());
        byte[] message = Base64.getDecoder().decode(PAYLOAD_NO_HEADERS);
        message[message.length - 1] ^= 0x01;
        assertThrows(IOException.class, () -> read(message));
    }
}
