package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.response.Response;
import dev.agentd.server.wire.JsonRpcEnvelope;
import dev.agentd.server.wire.JsonRpcError;
import dev.agentd.server.wire.JsonRpcReply;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One dispatched call and its answer. The first answer — the router's response, or an error
 * jsonrpc4j reported — becomes the call's one reply (none for a notification); the router answers
 * every command once (a prompt's preflight failure included, SPEC §3.3), so anything later is a
 * bug, logged and dropped. Answers may arrive on any thread.
 */
final class JsonRpcExchange {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcExchange.class);

    private final JsonRpcEnvelope.Call call;
    private final Consumer<JsonRpcReply> reply;
    private final AtomicBoolean answered = new AtomicBoolean();

    /** @param reply receives the reply; unused for a notification */
    JsonRpcExchange(JsonRpcEnvelope.Call call, Consumer<JsonRpcReply> reply) {
        this.call = call;
        this.reply = reply;
    }

    JsonRpcEnvelope.Call call() {
        return call;
    }

    /** The id as text for CommandRouter and CommandCodec, which only echo it; null when absent or null. */
    String idText() {
        JsonNode id = call.id();
        return id == null || id.isNull() ? null : id.asText();
    }

    /** A response from the router. */
    void onResponse(Response response) {
        if (answered.compareAndSet(false, true)) {
            send(JsonRpcReply.of(call.id(), response));
        } else {
            LOG.warn("dropped a second response to {}: {}", call.method(), response);
        }
    }

    /** An error found before the command ran (unknown method, invalid params). */
    void fail(JsonRpcError error) {
        if (answered.compareAndSet(false, true)) {
            send(JsonRpcReply.error(call.id(), error));
        }
    }

    private void send(JsonRpcReply answer) {
        if (call.notification()) {
            if (answer.error() != null) {
                LOG.warn("notification {} failed: {}", call.method(), answer.error().message());
            }
            return;
        }
        reply.accept(answer);
    }
}
