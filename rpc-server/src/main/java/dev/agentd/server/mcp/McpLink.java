package dev.agentd.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A connected MCP server as the rest of agentd sees it, in JSON and without SDK types, so that
 * nothing but {@link McpSdk} (and the transport it builds) links the SDK.
 */
interface McpLink {

    /** What a server tells its client unprompted. Called on the SDK's threads. */
    interface Events {
        /** The server's whole tool list after {@code notifications/tools/list_changed}. */
        void toolsChanged(List<JsonNode> tools);

        /** A {@code notifications/progress} for the call that sent {@code token}. */
        void progress(String token, double progress, Double total, String message);

        /** The connection ended (the process exited, the stream broke); {@code reason} is one line. */
        void closed(String reason);
    }

    /** The transport really in use: {@code stdio}, {@code http}, or {@code sse} (also after a fallback). */
    default String transport() {
        return "stdio";
    }

    /** The tools listed when the connection was made (as JSON {@code Tool} objects). */
    List<JsonNode> tools();

    /** {@code tools/call} with a progress token; completes with the result's JSON, or exceptionally. */
    CompletableFuture<JsonNode> call(String tool, JsonNode arguments, String progressToken);

    /** Tells the server to stop the call that sent {@code progressToken} ({@code notifications/cancelled}). */
    void cancel(String progressToken, String reason);

    /** Ends the connection; a stdio server is stopped with everything it started. Idempotent, bounded. */
    void close();
}
