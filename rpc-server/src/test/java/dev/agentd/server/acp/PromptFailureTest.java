package dev.agentd.server.acp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.protocol.message.StopReason;
import dev.agentd.protocol.message.Usage;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import dev.agentd.server.recovery.TransientKind;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Every error class → the errorKind a client sees, and the error's code and data. */
class PromptFailureTest {

    private static String kind(ErrorClass errorClass) {
        return PromptFailure.errorKind(Classification.of(errorClass));
    }

    @Test
    void everyClassHasItsKind() {
        assertNull(kind(ErrorClass.NONE));
        assertNull(kind(ErrorClass.ABORTED));
        assertEquals("rate_limited", kind(ErrorClass.RATE_LIMITED));
        assertEquals("rate_limited", kind(ErrorClass.USAGE_LIMIT));
        assertEquals("quota_exhausted", kind(ErrorClass.BILLING));
        assertEquals("quota_exhausted", kind(ErrorClass.QUOTA));
        assertEquals("auth_required", kind(ErrorClass.CREDENTIAL_REJECTED));
        assertEquals("access_denied", kind(ErrorClass.ACCESS_DENIED));
        assertEquals("context_exhausted", kind(ErrorClass.OVERFLOW));
        assertEquals("provider_error", kind(ErrorClass.HARD));
        assertEquals("provider_error", kind(ErrorClass.REFUSAL));
        assertEquals("provider_error", kind(ErrorClass.TRANSIENT));
        for (ErrorClass each : ErrorClass.values()) {
            kind(each); // a new class must be added to the switch (it does not compile otherwise)
        }
    }

    @Test
    void transientFailuresSayOverloadOrTransport() {
        assertEquals("overloaded", transientKind(529, null, null));
        assertEquals("overloaded", transientKind(503, null, null));
        assertEquals("overloaded", transientKind(null, "overloaded_error", null));
        assertEquals("overloaded", transientKind(500, null, "Server Overloaded"));
        assertEquals("transport_lost", transientKind(null, "stream_idle_timeout", null));
        assertEquals("transport_lost", transientKind(null, "connection_error", null));
        assertEquals("provider_error", transientKind(500, "api_error", "boom"));
    }

    @Test
    void theErrorCarriesStatusRetryAfterAndResetTime() {
        AgentMessage.Assistant reply = new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                StopReason.ERROR, "429 rate limited", 0, 429, "rate_limit_error", 30_000L, null);
        PromptFailure failure = PromptFailure.of(Classification.of(ErrorClass.RATE_LIMITED), reply, 0);
        assertEquals(-32603, failure.code());
        assertEquals("429 rate limited", failure.message());
        assertEquals("rate_limited", failure.data().path("errorKind").asText());
        assertEquals(429, failure.data().path("errorStatus").asInt());
        assertEquals(30_000, failure.data().path("retryAfterMs").asLong());
        assertEquals("1970-01-01T00:00:30Z", failure.data().path("resetsAt").asText());
    }

    @Test
    void rejectedAndMissingCredentialsAreAuthenticationRequired() {
        AgentMessage.Assistant reply = new AgentMessage.Assistant(List.of(), "api", "p", "m", Usage.ZERO,
                StopReason.ERROR, "401 invalid x-api-key", 0, 401, null, null, null);
        assertEquals(-32000, PromptFailure.of(Classification.of(ErrorClass.CREDENTIAL_REJECTED), reply, 0).code());
        assertFalse(PromptFailure.of(Classification.of(ErrorClass.CREDENTIAL_REJECTED), reply, 0).data().has("retryAfterMs"));
        PromptFailure missing = PromptFailure.missingCredentials("No API key for anthropic");
        assertEquals(-32000, missing.code());
        assertEquals("auth_required", missing.data().path("errorKind").asText());
        // the editor offers the advertised method behind -32000 (A4/Z3)
        assertEquals(AuthMethods.API_KEY, missing.data().path("authMethods").path(0).path("id").asText());
        assertEquals(AuthMethods.API_KEY, PromptFailure.of(Classification.of(ErrorClass.CREDENTIAL_REJECTED), reply, 0)
                .data().path("authMethods").path(0).path("id").asText());
        assertFalse(PromptFailure.of(Classification.of(ErrorClass.HARD), reply, 0).data().has("authMethods"));
    }

    /** A transient failure's kind, as the classifier decides it from the status, the type and the text. */
    private static String transientKind(Integer status, String type, String text) {
        return PromptFailure.errorKind(new Classification(ErrorClass.TRANSIENT, null,
                TransientKind.of(status, type, text == null ? null : text.toLowerCase(Locale.ROOT))));
    }
}
