package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.protocol.message.AgentMessage;
import dev.agentd.server.ai.ErrorTypes;
import dev.agentd.server.recovery.ErrorClass;
import java.time.Instant;
import java.util.Set;

/**
 * How a turn that ended on a provider error is reported (issue 16 §4): a JSON-RPC error on
 * {@code session/prompt} whose {@code data.errorKind} tells a client a quota wait from a crash.
 * Pure: the classifier's class and the failed reply in, the error out.
 *
 * @param code the JSON-RPC error code: {@link #AUTH_REQUIRED} for credentials, else internal
 */
public record PromptFailure(int code, String message, ObjectNode data) {
    /** ACP's "authentication required". */
    public static final int AUTH_REQUIRED = -32000;
    public static final int INTERNAL_ERROR = -32603;

    private static final Set<String> TRANSPORT_TYPES = Set.of(ErrorTypes.CONNECTION, ErrorTypes.CONNECT_TIMEOUT,
            ErrorTypes.STREAM_START_TIMEOUT, ErrorTypes.STREAM_IDLE_TIMEOUT, ErrorTypes.STREAM_TRUNCATED);
    private static final Set<Integer> OVERLOAD_STATUS = Set.of(503, 529);

    /** The {@code errorKind} of a failure class; null for the classes that are not failures. */
    public static String errorKind(ErrorClass errorClass, Integer status, String errorType, String errorMessage) {
        return switch (errorClass) {
            case NONE, ABORTED -> null;
            case RATE_LIMITED, USAGE_LIMIT -> "rate_limited";
            case BILLING, QUOTA -> "quota_exhausted";
            case CREDENTIAL_REJECTED -> "auth_required";
            case ACCESS_DENIED -> "access_denied";
            case OVERFLOW -> "context_exhausted";
            case REFUSAL, HARD -> "provider_error";
            case TRANSIENT -> errorType != null && TRANSPORT_TYPES.contains(errorType) ? "transport_lost"
                    : (status != null && OVERLOAD_STATUS.contains(status))
                            || "overloaded_error".equals(errorType)
                            || (errorMessage != null && errorMessage.toLowerCase(java.util.Locale.ROOT)
                                    .contains("overloaded")) ? "overloaded" : "provider_error";
        };
    }

    /** The error for a reply of class {@code errorClass}; {@code nowMs} dates {@code resetsAt}. */
    public static PromptFailure of(ErrorClass errorClass, AgentMessage.Assistant reply, long nowMs) {
        String kind = errorKind(errorClass, reply.errorStatus(), reply.errorType(), reply.errorMessage());
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
        int code = errorClass == ErrorClass.CREDENTIAL_REJECTED ? AUTH_REQUIRED : INTERNAL_ERROR;
        return new PromptFailure(code, text, data);
    }

    /** No usable credential for the model: ACP's authentication-required error. */
    public static PromptFailure missingCredentials(String problem) {
        return new PromptFailure(AUTH_REQUIRED, problem, AcpJson.object().put("errorKind", "auth_required"));
    }
}
