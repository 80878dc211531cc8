package dev.agentd.server.sessionfile;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random (version 4) UUIDs for session and entry ids, which must be unique but need not be
 * unguessable. {@link UUID#randomUUID()} would initialize {@code SecureRandom}, and with it the
 * JDK's security providers, on the path to {@code ready} (15–20 ms; SPEC §10 budgets startup).
 */
final class RandomIds {
    private RandomIds() {}

    static UUID uuid() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L; // version 4
        long low = random.nextLong() & ~(0b11L << 62) | (0b10L << 62); // IETF variant
        return new UUID(high, low);
    }
}
