package dev.agentd.server.wire;

/**
 * A JSON-RPC 2.0 error object (SPEC §3.7). agentd sends no {@code data}: the message says it all,
 * and clients of both pi dialects see the same text.
 */
public record JsonRpcError(int code, String message) {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** The command ran and failed: the {@code success:false} of the rpc dialect. */
    public static final int COMMAND_FAILED = -32000;

    public static JsonRpcError parseError(String detail) {
        return new JsonRpcError(PARSE_ERROR, "Parse error: " + detail);
    }

    public static JsonRpcError invalidRequest(String detail) {
        return new JsonRpcError(INVALID_REQUEST, "Invalid request: " + detail);
    }

    public static JsonRpcError methodNotFound(String method) {
        return new JsonRpcError(METHOD_NOT_FOUND, "Method not found: " + method);
    }

    /** {@code detail} is CommandCodec's text, the same as the rpc dialect's error. */
    public static JsonRpcError invalidParams(String detail) {
        return new JsonRpcError(INVALID_PARAMS, detail);
    }

    public static JsonRpcError commandFailed(String error) {
        return new JsonRpcError(COMMAND_FAILED, error == null || error.isBlank() ? "Unknown error" : error);
    }

    public static JsonRpcError internal(String detail) {
        return new JsonRpcError(INTERNAL_ERROR, "Internal error: " + detail);
    }
}
