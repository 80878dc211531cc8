package dev.agentd.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class IdRecoveryTest {
    private static String recover(String line) {
        return IdRecovery.recover(line.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void findsAPlainIdInBrokenJson() {
        assertEquals("p1", recover("{\"type\":\"prompt\",\"id\" : \"p1\",\"message\":"));
    }

    @Test
    void decodesEscapesAsAJsonParserWould() {
        // Found by FuzzIT: the escaped text used to be echoed as written, so the id never matched.
        assertEquals("a\u00e9\"b\\c\u2028", recover("{\"id\":\"a\\u00e9\\\"b\\\\c\\u2028\",\"type\":\"get_st"));
    }

    @Test
    void aBrokenEscapeIsEchoedAsWritten() {
        assertEquals("x\\u12", recover("{\"id\":\"x\\u12\",oops"));
    }

    @Test
    void noIdOrAnUnterminatedOneIsNull() {
        assertNull(recover("{\"type\":\"get_state\""));
        assertNull(recover("{\"id\":\"never closed"));
        assertNull(recover("\u0000\u00ff garbage"));
    }
}
