package dev.agentd.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transient kind is decided once, with the class, from the type, the status and the text (W4). */
class TransientKindTest {
    private static Classification classify(Integer status, String type, String text) {
        return ErrorClassifier.classify(new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                StopReason.ERROR, text, 0, status, type, null, null), 200_000);
    }

    @Test
    void aTransientReplyCarriesItsKind() {
        assertEquals(TransientKind.OVERLOADED, classify(529, "overloaded_error", "Overloaded").transientKind());
        assertEquals(TransientKind.UNAVAILABLE, classify(503, null, "503 service unavailable").transientKind());
        assertEquals(TransientKind.SERVER, classify(502, null, "502 bad gateway").transientKind());
        assertEquals(TransientKind.TRANSPORT,
                classify(null, "stream_idle_timeout", "Stream idle timeout: no data for 60000 ms").transientKind());
        assertEquals(TransientKind.TRANSPORT, classify(null, null, "fetch failed").transientKind());
        assertEquals(TransientKind.OTHER, classify(429, "rate_limit_error", "429 slow down").transientKind(),
                "only transient failures have a kind");
    }

    @Test
    void aTransportTypeWinsOverTheTextAndOverloadOverTheStatus() {
        assertEquals(TransientKind.TRANSPORT, TransientKind.of(null, "connection_error", "server overloaded"));
        assertEquals(TransientKind.OVERLOADED, TransientKind.of(500, null, "server overloaded"));
        assertEquals(TransientKind.OVERLOADED, TransientKind.of(503, null, "no capacity"));
    }

    @Test
    void aFiveInsideALongerNumberIsNoServerStatus() {
        assertTrue(TransientKind.hasServerStatus("http 503"));
        assertFalse(TransientKind.hasServerStatus("req_5031234 failed"));
        assertFalse(TransientKind.hasServerStatus("429"));
    }
}
