package dev.agentd.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** N16: the process-wide secret set keeps real secrets and is bounded. */
class KnownSecretsTest {
    @Test
    void shortBlankAndHugeValuesAreNotKept() {
        KnownSecrets.add("true");
        KnownSecrets.add("       ");
        String huge = "h".repeat(KnownSecrets.MAX_LENGTH + 1);
        KnownSecrets.add(huge);
        KnownSecrets.add(null);
        assertFalse(KnownSecrets.all().contains("true"));
        assertFalse(KnownSecrets.all().contains(huge));
        KnownSecrets.add("sk-known-secrets-test-01");
        assertTrue(KnownSecrets.all().contains("sk-known-secrets-test-01"));
    }

    @Test
    void theSetStopsGrowingAtItsBound() {
        KnownSecrets secrets = new KnownSecrets(3); // not the process's: other tests add to that one
        for (int i = 0; i < 10; i++) {
            secrets.remember("bounded-secret-" + i);
        }
        assertEquals(3, secrets.values().size());
    }
}
