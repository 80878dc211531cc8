package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A8: the name when given, else the first message on one line, cut. */
class SessionTitlesTest {
    @Test
    void theNameElseTheFirstMessageCut() {
        assertEquals("Fix the build", SessionTitles.of("Fix the build", "anything"));
        assertEquals("why does the build fail on CI?", SessionTitles.of(null, "  why does the build\n  fail on CI?\n"));
        String cut = SessionTitles.of(" ", "x".repeat(500));
        assertEquals(SessionTitles.MAX_CHARS, cut.length());
        assertEquals('…', cut.charAt(cut.length() - 1));
        assertNull(SessionTitles.of(null, "   "));
        assertNull(SessionTitles.of(null, null));
    }

    @Test
    void aHugeFirstMessageGivesTheSameTitleFromItsHead() {
        String huge = "deploy   the\nservice " + "x ".repeat(5_000_000);
        String title = SessionTitles.of(null, huge);
        assertTrue(title.length() <= SessionTitles.MAX_CHARS && title.endsWith("…"), title);
        assertEquals(title, SessionTitles.of(null, huge.substring(0, SessionTitles.SCANNED_CHARS)));
        assertEquals("deploy the service x", title.substring(0, 20));
    }
}
