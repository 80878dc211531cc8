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
    void recoversNumberAndNullIdsAsTheValuesTheyWere() {
        assertEquals("7", IdRecovery.recoverNode("{\"id\": 7, \"type\":".getBytes(StandardCharsets.UTF_8)).toString());
        assertEquals("-2.5", IdRecovery.recoverNode("{\"id\":-2.5,".getBytes(StandardCharsets.UTF_8)).toString());
        assertEquals("null", IdRecovery.recoverNode("{\"id\":null,\"x\"".getBytes(StandardCharsets.UTF_8)).toString());
        assertEquals("\"p1\"", IdRecovery.recoverNode("{\"id\":\"p1\",".getBytes(StandardCharsets.UTF_8)).toString());
        org.junit.jupiter.api.Assertions.assertNull(IdRecovery.recoverNode("{\"id\":tru".getBytes(StandardCharsets.UTF_8)));
        org.junit.jupiter.api.Assertions.assertNull(IdRecovery.recoverNode("{\"id\":".getBytes(StandardCharsets.UTF_8)));
        org.junit.jupiter.api.Assertions.assertNull(IdRecovery.recoverNode("{\"type\":\"x\"".getBytes(StandardCharsets.UTF_8)));
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

    @Test
    void aLongIdIsScannedWithoutRecursion() {
        // The old regex recursed once per character: a 1.5 K id overflowed the reader's stack.
        String id = "a".repeat(60_000);
        assertEquals(id, recover("{\"type\":\"get_state\",\"id\":\"" + id + "\" x"));
        String escaped = "\\\"".repeat(10_000);
        assertEquals("\"".repeat(10_000), recover("{\"id\":\"" + escaped + "\" broken"));
    }

    @Test
    void keysThatAreNotFollowedByAStringAreSkipped() {
        assertEquals("later", recover("{\"id\":42,\"x\":{\"id\" \"no colon\", \"id\" :\t\"later\" oops"));
        assertNull(recover("\"id\": 1, ".repeat(20_000)));
        assertNull(recover("{\"id\": \"" + "x".repeat(100_000)));
    }
}
