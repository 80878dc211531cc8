package dev.agentd.server.ai.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.agentd.server.testing.Samples;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** Issue 17 point 7: the request log shows method, URL and request id, never a secret. */
class RequestLogTest {
    @Test
    void theUrlKeepsHostPortAndPathOnly() {
        assertEquals("https://api.example.com/v1/messages",
                RequestLog.url(URI.create("https://user:sk-secret@api.example.com/v1/messages?key=sk-secret")));
        assertEquals("http://127.0.0.1:11434/v1/chat/completions",
                RequestLog.url(URI.create("http://127.0.0.1:11434/v1/chat/completions")));
    }

    @Test
    void onlyARequestIdThatLooksLikeOneIsShown() {
        assertEquals("req_011CUdd7:ab-9.x", RequestLog.safeId("req_011CUdd7:ab-9.x"));
        assertNull(RequestLog.safeId("Bearer sk-ant secret"));
        assertNull(RequestLog.safeId("x".repeat(101)));
        assertNull(RequestLog.safeId(""));
    }

    /** Each kind of exchange result has its own line: a kind added later and not handled throws. */
    @Test
    void everyExchangeResultHasItsOwnOutcome() {
        for (ExchangeResult result : Samples.oneOfEach(ExchangeResult.class)) {
            assertFalse(RequestLog.outcome(result, new RequestLog.Seen(), 5).isBlank(), result.toString());
        }
        assertThrows(IllegalStateException.class, () -> RequestLog.outcome(null, new RequestLog.Seen(), 5));
    }
}
