package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.event.AgentEvent;
import dev.agentd.protocol.response.Response;
import dev.agentd.server.wire.CommandLines;
import dev.agentd.server.wire.RpcOutput;
import java.io.InputStream;

/**
 * The pi-compatible JSONL mode (SPEC §3): reads one command per line from stdin, in order, on the
 * calling thread, and hands each to the router, which answers quick commands at once and long
 * ones (abort, new_session) asynchronously — the reader never waits for a run. Every malformed
 * input gets a response and the loop goes on; only end of input stops it.
 */
public final class RpcMode implements PiDialect {

    private final InputStream in;
    private final RpcOutput out;
    private final CommandRouter router;
    private final int maxLineBytes;

    public RpcMode(InputStream in, RpcOutput out, CommandRouter router, int maxLineBytes) {
        this.in = in;
        this.out = out;
        this.router = router;
        this.maxLineBytes = maxLineBytes;
    }

    /** Events are written as they are (SPEC §3.4). */
    @Override
    public void emit(AgentEvent event) {
        out.write(event);
    }

    /** Serves until stdin ends. */
    @Override
    public void serve() {
        CommandLines.read(in, maxLineBytes, new CommandLines.Handler() {
            @Override
            public void invalid(String problem, byte[] bytes) {
                JsonNode id = bytes == null ? null : IdRecovery.recoverNode(bytes);
                Response failure = Response.failure(id != null && id.isTextual() ? id.textValue() : null, "parse",
                        "Failed to parse command: " + problem);
                out.write(IdEcho.answer(failure, id));
            }

            @Override
            public void json(JsonNode node) {
                handle(node);
            }

            @Override
            public void failed(Throwable error, byte[] bytes, JsonNode node) {
                String id = node != null ? CommandCodec.idText(idNode(node))
                        : bytes == null ? null : IdRecovery.recover(bytes);
                Response failure = Response.failure(id, failedCommand(node),
                        "Internal error while handling the command: " + error.getClass().getSimpleName());
                out.write(IdEcho.answer(failure, idNode(node)));
            }
        });
    }

    /** The id node of a parsed request, or null; a line that is not JSON has its string id recovered instead. */
    private static JsonNode idNode(JsonNode node) {
        return node != null && node.isObject() ? node.get("id") : null;
    }

    private static String failedCommand(JsonNode node) {
        JsonNode type = node == null ? null : node.path("type");
        return type != null && type.isTextual() ? type.textValue() : "parse";
    }

    /** Every response echoes the request's id node as sent (SPEC §3.3). */
    private void handle(JsonNode node) {
        JsonNode id = idNode(node);
        CommandCodec.Result result = CommandCodec.decode(node);
        if (result instanceof CommandCodec.Rejected rejected) {
            out.write(IdEcho.answer(Response.failure(rejected.id(), rejected.command(), rejected.error()), id));
        } else if (result instanceof CommandCodec.Decoded decoded) {
            router.dispatch(decoded.id(), decoded.command(), response -> out.write(IdEcho.answer(response, id)));
        } else {
            throw new IllegalStateException("unhandled decoding: " + result.getClass().getSimpleName());
        }
    }
}
