package dev.agentd.server.rpc;

import dev.agentd.server.wire.JsonRpcReply;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Collects the replies of one JSON-RPC batch and writes them as one JSON array once every element
 * that expects a reply has one — long commands answer later, so that may be after the batch was
 * read. Notifications add no entry (no nulls); a batch of notifications only writes nothing.
 * Replies are listed in the order they arrive, which JSON-RPC allows.
 */
final class BatchReplies {
    private final Consumer<Object> out;
    private final List<JsonRpcReply> replies = new ArrayList<>();
    private int expected;
    private boolean sealed;
    private boolean written;

    BatchReplies(Consumer<Object> out) {
        this.out = out;
    }

    /** One more element will be answered; the returned slot takes its reply (once). */
    synchronized Consumer<JsonRpcReply> expect() {
        expected++;
        return this::add;
    }

    /** Every element has been handed out: the array may be written once complete. */
    synchronized void seal() {
        sealed = true;
        writeIfComplete();
    }

    private synchronized void add(JsonRpcReply reply) {
        replies.add(reply);
        writeIfComplete();
    }

    private void writeIfComplete() {
        if (sealed && !written && replies.size() == expected) {
            written = true;
            if (!replies.isEmpty()) {
                out.accept(List.copyOf(replies));
            }
        }
    }
}
