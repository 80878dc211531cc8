package dev.agentd.server.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class CredentialIdsTest {
    private static final String KEY = "sk-ids-test-9fQ2xL7mN4";

    @Test
    void theSameKeyGetsTheSameNameAndTheNameHoldsNoKey() throws Exception {
        CredentialId id = CredentialIds.of("beta", KEY);
        assertEquals(id, CredentialIds.of("beta", KEY));
        assertEquals("beta", id.provider());
        assertTrue(id.hash().matches("[0-9a-f]{64}"));
        assertFalse(id.toString().contains(KEY));
        assertNotEquals(id, CredentialIds.of("beta", KEY + "x"));
        assertNotEquals(id.hash(), CredentialIds.of("alpha", KEY).hash(), "the provider is part of the message");
        String plain = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(("beta\0" + KEY).getBytes(StandardCharsets.UTF_8)));
        assertNotEquals(plain, id.hash(), "keyed, not a bare digest");
    }
}
