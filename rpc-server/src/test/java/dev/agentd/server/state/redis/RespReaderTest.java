package dev.agentd.server.state.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RespReaderTest {
    private static Reply read(String bytes) throws IOException {
        return new RespReader(new ByteArrayInputStream(bytes.getBytes(StandardCharsets.UTF_8))).read();
    }

    @Test
    void decodesEveryReplyType() throws IOException {
        assertEquals(new Reply.Simple("OK"), read("+OK\r\n"));
        assertEquals("NOSCRIPT", ((Reply.Error) read("-NOSCRIPT No matching script\r\n")).code());
        assertEquals(new Reply.Int(-42), read(":-42\r\n"));
        assertEquals(new Reply.Bulk("héllo"), read("$6\r\nhéllo\r\n"));
        assertEquals(new Reply.Nil(), read("$-1\r\n"));
        assertEquals(new Reply.Nil(), read("*-1\r\n"));
        assertEquals(new Reply.Array(List.of(new Reply.Int(1), new Reply.Array(List.of(new Reply.Bulk("a"))))),
                read("*2\r\n:1\r\n*1\r\n$1\r\na\r\n"));
    }

    @Test
    void aHugeDeclaredBulkIsRefusedBeforeAnyAllocation() {
        RespProtocolException e = assertThrows(RespProtocolException.class, () -> read("$2147483647\r\n"));
        assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
    }

    @Test
    void aHugeDeclaredArrayIsRefused() {
        assertThrows(RespProtocolException.class, () -> read("*9223372036854775807\r\n"));
        assertThrows(RespProtocolException.class, () -> read("*100001\r\n"));
    }

    @Test
    void deepNestingIsRefusedWithoutDeepRecursion() {
        assertThrows(RespProtocolException.class, () -> read("*1\r\n".repeat(100_000)));
    }

    @Test
    void anEndlessLineStopsAtTheLineBound() {
        // An endless stream of 'a' with no CRLF: the reader gives up after MAX_LINE bytes.
        InputStream endless = new InputStream() {
            long served;

            @Override
            public int read() {
                served++;
                return 'a';
            }
        };
        assertThrows(RespProtocolException.class, () -> new RespReader(endless).read());
    }

    @Test
    void manyArrayItemsCannotExceedTheWholeReplyBudget() {
        // 100 000 bulk strings of 1 KiB each would be 100 MB; the reply budget is 8 MiB.
        InputStream stream = new InputStream() {
            private byte[] chunk = "*100000\r\n".getBytes(StandardCharsets.US_ASCII);
            private int pos;
            private final byte[] item = ("$1024\r\n" + "x".repeat(1024) + "\r\n").getBytes(StandardCharsets.US_ASCII);

            @Override
            public int read() {
                if (pos == chunk.length) {
                    chunk = item;
                    pos = 0;
                }
                return chunk[pos++];
            }
        };
        RespProtocolException e = assertThrows(RespProtocolException.class, () -> new RespReader(stream).read());
        assertTrue(e.getMessage().contains("larger than"), e.getMessage());
    }

    @Test
    void truncatedOrMalformedRepliesAreProtocolErrors() {
        assertThrows(RespProtocolException.class, () -> read("$5\r\nab"));
        assertThrows(RespProtocolException.class, () -> read(":12x\r\n"));
        assertThrows(RespProtocolException.class, () -> read("?what\r\n"));
        assertThrows(RespProtocolException.class, () -> read("+OK\rX"));
    }

    @Test
    void commandsAreEncodedAsBulkArrays() {
        assertEquals("*2\r\n$4\r\nPING\r\n$2\r\nhé\r\n".getBytes(StandardCharsets.UTF_8).length,
                RespConnection.encode("PING", "hé").length);
        assertEquals("*2\r\n$4\r\nPING\r\n$3\r\nhé\r\n", new String(RespConnection.encode("PING", "hé"),
                StandardCharsets.UTF_8));
    }
}
