package dev.agentd.client;

import dev.agentd.protocol.response.Response;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Requests sent and not yet answered, by id. Once closed (client closed, daemon gone) every
 * pending and every later request fails at once with the closing reason.
 */
final class PendingRequests {
    private record Entry(String command, CompletableFuture<Response> future) {}

    private final Map<String, Entry> byId = new ConcurrentHashMap<>();
    private volatile RpcException closedReason;

    CompletableFuture<Response> register(String id, String command) {
        CompletableFuture<Response> future = new CompletableFuture<>();
        byId.put(id, new Entry(command, future));
        // Checked after the put, so a concurrent close() either sees the entry or we see its reason.
        RpcException reason = closedReason;
        if (reason != null) {
            fail(id, reason);
        }
        return future;
    }

    /** A response and the request it answers. */
    record Claimed(Response response, CompletableFuture<Response> future) {}

    /**
     * Removes the request {@code response} answers and returns it with the response named after
     * its command (dialects that do not echo it leave it null); null when no such request is pending.
     * The caller completes the future, after acting on the response.
     */
    Claimed claim(Response response) {
        Entry entry = response.id() == null ? null : byId.remove(response.id());
        if (entry == null) {
            return null;
        }
        Response named = response.command() != null ? response
                : new Response(response.id(), entry.command(), response.success(), response.data(), response.error());
        return new Claimed(named, entry.future());
    }

    void fail(String id, RpcException reason) {
        Entry entry = byId.remove(id);
        if (entry != null) {
            entry.future().completeExceptionally(reason);
        }
    }

    /** Forgets a request (e.g. after its caller timed out): a late answer becomes a stray response. */
    void forget(String id) {
        byId.remove(id);
    }

    /** Fails everything from now on; the first reason wins. Returns false when already closed. */
    synchronized boolean close(RpcException reason) {
        if (closedReason != null) {
            return false;
        }
        closedReason = reason;
        byId.keySet().forEach(id -> fail(id, reason));
        return true;
    }

    RpcException closedReason() {
        return closedReason;
    }
}
