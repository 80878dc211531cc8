package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.server.wire.CommandLines;
import dev.agentd.server.wire.JsonRpcEnvelope;
import dev.agentd.server.wire.JsonRpcError;
import dev.agentd.server.wire.JsonRpcNotification;
import dev.agentd.server.wire.JsonRpcReply;
import dev.agentd.server.wire.RpcOutput;
import java.io.InputStream;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JSON-RPC 2.0 dialect (SPEC §3.7) over the shared framing: one request, notification
 * or batch per line, read in order on the calling thread. Each line is parsed once; envelopes are
 * checked here ({@link JsonRpcEnvelope}: -32700 and -32600 are written by agentd), calls go to
 * jsonrpc4j for dispatch ({@link JsonRpcDispatcher}) and on to the shared {@link CommandRouter}.
 * Quick commands are answered before the next line is read, long ones when they finish, so the
 * reader never waits for a run. Events are {@code event} notifications. Every record goes through
 * the one {@link RpcOutput}.
 */
public final class JsonRpcMode implements PiDialect {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcMode.class);

    private final InputStream in;
    private final RpcOutput out;
    private final JsonRpcDispatcher dispatcher;
    private final int maxLineBytes;

    public JsonRpcMode(InputStream in, RpcOutput out, CommandRouter router, int maxLineBytes) {
        this.in = in;
        this.out = out;
        this.dispatcher = new JsonRpcDispatcher(router);
        this.maxLineBytes = maxLineBytes;
    }

    /** Events are notifications carrying the event object of the rpc dialect (SPEC §3.4). */
    @Override
    public void emit(AgentEvent event) {
        out.write(JsonRpcNotification.event(event));
    }

    /** Serves until stdin ends. */
    @Override
    public void serve() {
        CommandLines.read(in, maxLineBytes, new CommandLines.Handler() {
            @Override
            public void invalid(String problem, byte[] bytes) {
                out.write(JsonRpcReply.error(NullNode.getInstance(), JsonRpcError.parseError(problem)));
            }

            @Override
            public void json(JsonNode node) {
                handleLine(node);
            }

            @Override
            public void failed(Throwable error, byte[] bytes, JsonNode node) {
                JsonNode id = node != null && node.isObject() ? node.path("id") : NullNode.getInstance();
                out.write(JsonRpcReply.error(id.isTextual() || id.isNumber() ? id : NullNode.getInstance(),
                        JsonRpcError.internal(error.getClass().getSimpleName())));
            }
        });
    }

    /** One line: a request or notification, or a batch of them. */
    private void handleLine(JsonNode node) {
        if (!(node instanceof ArrayNode batch)) {
            handle(node, () -> out::write);
            return;
        }
        if (batch.isEmpty()) {
            out.write(JsonRpcReply.error(NullNode.getInstance(), JsonRpcError.invalidRequest("empty batch")));
            return;
        }
        BatchReplies replies = new BatchReplies(out::write);
        for (JsonNode element : batch) {
            handle(element, replies::expect);
        }
        replies.seal();
    }

    /** {@code replyTo} is asked for a reply slot only when the request will be answered. */
    private void handle(JsonNode node, Supplier<Consumer<JsonRpcReply>> replyTo) {
        JsonRpcEnvelope.Result checked = JsonRpcEnvelope.check(node, JsonRpcDispatcher::knows);
        if (checked instanceof JsonRpcEnvelope.Rejected rejected) {
            if (rejected.id() != null) {
                replyTo.get().accept(JsonRpcReply.error(rejected.id(), rejected.error()));
            } else {
                LOG.warn("notification rejected: {}", rejected.error().message());
            }
        } else if (checked instanceof JsonRpcEnvelope.Call call) {
            Consumer<JsonRpcReply> reply = call.notification() ? null : replyTo.get();
            dispatcher.dispatch(new JsonRpcExchange(call, reply));
        } else {
            throw new IllegalStateException("unhandled envelope: " + checked.getClass().getSimpleName());
        }
    }
}
