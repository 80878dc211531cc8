package dev.agentd.server.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.wire.RpcOutput;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One ACP connection's writing side: replies, notifications and agent-to-client requests, all
 * through the process's one {@link RpcOutput}. Agent requests get ids of their own and wait in a
 * table for the client's answer, which the stdin reader hands to {@link #answered}; whoever waits
 * does so on its own thread, never on the reader's.
 */
final class AcpConnection {
    private final RpcOutput out;
    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    AcpConnection(RpcOutput out) {
        this.out = out;
    }

    void result(JsonNode id, JsonNode result) {
        ObjectNode reply = envelope().set("id", id);
        reply.set("result", result);
        out.write(reply);
    }

    void error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode error = AcpJson.object().put("code", code).put("message", message);
        if (data != null) {
            error.set("data", data);
        }
        ObjectNode reply = envelope().set("id", id);
        reply.set("error", error);
        out.write(reply);
    }

    void notify(String method, JsonNode params) {
        ObjectNode note = envelope().put("method", method);
        note.set("params", params);
        out.write(note);
    }

    /** Sends a request to the client; completes with its result, or exceptionally with its error. */
    CompletableFuture<JsonNode> request(String method, JsonNode params) {
        long id = nextId.getAndIncrement();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode request = envelope().put("id", id).put("method", method);
        request.set("params", params);
        out.write(request);
        return answer;
    }

    /**
     * Sends a request to the client and waits for its result on the caller's thread (a tool's,
     * never the reader's); a cancelled run stops waiting. The client's error is thrown as
     * {@link ClientError}.
     */
    JsonNode call(String method, JsonNode params, CancellationToken cancel) throws Exception {
        CompletableFuture<JsonNode> answer = request(method, params);
        Runnable unregister = cancel.onCancel(() -> answer.cancel(false));
        try {
            return answer.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            unregister.run();
        }
    }

    /** A response from the client; one to an id this side never sent is ignored. */
    void answered(JsonNode message) {
        JsonNode id = message.get("id");
        CompletableFuture<JsonNode> answer = id != null && id.canConvertToLong() ? pending.remove(id.asLong()) : null;
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null && !error.isNull()) {
            answer.completeExceptionally(new ClientError(error.path("code").asInt(), error.path("message").asText()));
        } else {
            answer.complete(message.path("result"));
        }
    }

    /** Ends every wait: the client is gone. */
    void closed() {
        pending.values().forEach(answer -> answer.completeExceptionally(new ClientError(-32603, "connection closed")));
        pending.clear();
    }

    private static ObjectNode envelope() {
        return AcpJson.object().put("jsonrpc", "2.0");
    }

    /** The client answered an agent request with an error. */
    static final class ClientError extends RuntimeException {
        final int code;

        ClientError(int code, String message) {
            super(message);
            this.code = code;
        }
    }
}
