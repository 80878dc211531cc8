package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.recovery.Classification;
import dev.agentd.server.recovery.ErrorClass;
import java.time.Instant;

/**
 * How a turn that ended on a provider error is reported (issue 16 §4): a JSON-RPC error on
 * {@code session/prompt} whose {@code data.errorKind} tells a client a quota wait from a crash.
 * Pure: the decision's classification and the failed reply in, the error out.
 *
 * @param code the JSON-RPC error code: {@link #AUTH_REQUIRED} for credentials (its data names the
 *     {@code authMethods}), else internal
 */
public record PromptFailure(int code, String message, ObjectNode data) {
    /** ACP's "authentication required". */
    public static final int AUTH_REQUIRED = -32000;
    public static final int INTERNAL_ERROR = -32603;

    /**
     * The {@code errorKind} of a failure, a table on the classification the recovery decision made
     * (null for the classes that are not failures).
     */
    public static String errorKind(Classification classification) {
        return switch (classification.errorClass()) {
            case NONE, ABORTED -> null;
            case RATE_LIMITED, USAGE_LIMIT -> "rate_limited";
            case BILLING, QUOTA -> "quota_exhausted";
            case CREDENTIAL_REJECTED -> "auth_required";
            case ACCESS_DENIED -> "access_denied";
            case OVERFLOW -> "context_exhausted";
            case REFUSAL, HARD -> "provider_error";
            case TRANSIENT -> switch (classification.transientKind()) {
                case TRANSPORT -> "transport_lost";
                case OVERLOADED, UNAVAILABLE -> "overloaded";
                case SERVER, OTHER -> "provider_error";
            };
        };
    }

    /** The error for {@code reply}, classified as {@code classification}; {@code nowMs} dates {@code resetsAt}. */
    public static PromptFailure of(Classification classification, AgentMessage.Assistant reply, long nowMs) {
        String kind = errorKind(classification);
        ObjectNode data = AcpJson.object().put("errorKind", kind == null ? "provider_error" : kind);
        if (reply.errorStatus() != null) {
            data.put("errorStatus", reply.errorStatus());
        }
        if (reply.retryAfterMs() != null) {
            data.put("retryAfterMs", reply.retryAfterMs());
            data.put("resetsAt", Instant.ofEpochMilli(nowMs + reply.retryAfterMs()).toString());
        }
        String text = reply.errorMessage() == null || reply.errorMessage().isBlank() ? "the provider failed"
                : reply.errorMessage();
        if (classification.errorClass() == ErrorClass.CREDENTIAL_REJECTED) {
            data.set("authMethods", AuthMethods.advertised());
            return new PromptFailure(AUTH_REQUIRED, text, data);
        }
        return new PromptFailure(INTERNAL_ERROR, text, data);
    }

    /**
     * No usable credential for the model: ACP's authentication-required error, with the methods
     * (also advertised in {@code initialize}) an editor can offer to get one.
     */
    public static PromptFailure missingCredentials(String problem) {
        ObjectNode data = AcpJson.object().put("errorKind", "auth_required");
        data.set("authMethods", AuthMethods.advertised());
        return new PromptFailure(AUTH_REQUIRED, problem, data);
    }
}
