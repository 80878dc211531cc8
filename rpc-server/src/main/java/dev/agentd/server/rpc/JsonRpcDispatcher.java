package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.googlecode.jsonrpc4j.ErrorResolver;
import com.googlecode.jsonrpc4j.JsonResponse;
import com.googlecode.jsonrpc4j.JsonRpcBasicServer;
import dev.agentd.protocol.command.CommandCodec;
import dev.agentd.protocol.json.Json;
import dev.agentd.server.wire.JsonRpcEnvelope;
import dev.agentd.server.wire.JsonRpcError;
import dev.agentd.server.wire.JsonRpcReply;
import dev.agentd.server.wire.RpcOutput;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jsonrpc4j binding of the JSON-RPC dialect. The split of the work:
 *
 * <ul>
 *   <li><b>jsonrpc4j</b> resolves the method name to a {@link CommandMethods} method (none:
 *       -32601), binds the params to its parameter, invokes it, and turns what it throws into an
 *       error object through {@link #errors}.</li>
 *   <li><b>agentd</b> frames lines, validates the envelope ({@link JsonRpcEnvelope}), keeps the
 *       request's real id, decodes the fields with CommandCodec (so both dialects name a bad field
 *       the same way: -32602), routes the command through the shared {@link CommandRouter}, and
 *       writes every reply and notification itself ({@link JsonRpcExchange}, one
 *       {@link RpcOutput}).</li>
 * </ul>
 *
 * Why jsonrpc4j never sees the stream nor the id: its {@code handleRequest} drops pipelined
 * requests, and it mangles ids (the string {@code "null"}, truncated numbers, {@code "id":null}
 * taken for a notification). So each validated call is handed to {@link #handleJsonNodeRequest}
 * with a placeholder id, and only the error code and message of its answer are used; a success
 * is answered by the router, possibly later (abort, new_session, compact and bash finish
 * asynchronously). The params object goes in as the one positional argument, because
 * jsonrpc4j's by-name binding maps fields to {@code @JsonRpcParam} parameters one by one and
 * cannot hand over the whole object — which is why allowExtraParams/allowLessParams play no part:
 * unknown fields are ignored by CommandCodec, as in the rpc dialect.
 */
final class JsonRpcDispatcher extends JsonRpcBasicServer {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcDispatcher.class);
    private static final String PLACEHOLDER_ID = "agentd";
    private static final Set<String> METHODS = Arrays.stream(CommandMethods.class.getMethods())
            .map(Method::getName).collect(Collectors.toUnmodifiableSet());

    private final Invoker invoker;

    JsonRpcDispatcher(CommandRouter router) {
        this(new Invoker(router));
    }

    private JsonRpcDispatcher(Invoker invoker) {
        super(Json.mapper(), invoker.proxy(), CommandMethods.class);
        this.invoker = invoker;
        setBackwardsCompatible(false);
        setShouldLogInvocationErrors(false);
        setErrorResolver(JsonRpcDispatcher::errors);
    }

    /** Whether {@code method} is one of the dialect's methods (one per command). */
    static boolean knows(String method) {
        return METHODS.contains(method);
    }

    /** Dispatches one validated call; its answers go to {@code exchange}, now or later. */
    synchronized void dispatch(JsonRpcExchange exchange) {
        JsonRpcEnvelope.Call call = exchange.call();
        ObjectNode request = Json.mapper().createObjectNode();
        request.put("jsonrpc", JsonRpcReply.VERSION);
        request.put("id", PLACEHOLDER_ID);
        request.put("method", call.method());
        request.putArray("params").add(call.params());
        JsonResponse response;
        invoker.current = exchange;
        try {
            response = handleJsonNodeRequest(request);
        } catch (Exception e) {
            LOG.error("jsonrpc4j failed on {}", call.method(), e);
            exchange.fail(JsonRpcError.internal(e.toString()));
            return;
        } finally {
            invoker.current = null;
        }
        JsonNode error = response.getResponse() == null ? null : response.getResponse().get("error");
        if (error != null) {
            exchange.fail(toError(call.method(), error));
        }
    }

    private static JsonRpcError toError(String method, JsonNode error) {
        int code = error.path("code").asInt(JsonRpcError.INTERNAL_ERROR);
        if (code == JsonRpcError.METHOD_NOT_FOUND) {
            return JsonRpcError.methodNotFound(method);
        }
        return new JsonRpcError(code, error.path("message").asText("Unknown error"));
    }

    /** What a {@link CommandMethods} method threw, as an error object. */
    private static ErrorResolver.JsonError errors(Throwable error, Method method, List<JsonNode> arguments) {
        if (error instanceof InvalidParamsException invalid) {
            return new ErrorResolver.JsonError(JsonRpcError.INVALID_PARAMS, invalid.getMessage(), null);
        }
        // The router turns handler failures into responses; anything thrown here is a bug.
        LOG.error("{} threw", method.getName(), error);
        return new ErrorResolver.JsonError(JsonRpcError.INTERNAL_ERROR, "Internal error: " + error, null);
    }

    /**
     * The one object behind every {@link CommandMethods} method: decodes the params with CommandCodec
     * and routes the command. jsonrpc4j invokes it synchronously inside {@link #dispatch}, which sets
     * {@link #current} around the call (under the dispatcher's lock).
     */
    private static final class Invoker implements InvocationHandler {
        private final CommandRouter router;
        private JsonRpcExchange current;

        Invoker(CommandRouter router) {
            this.router = router;
        }

        CommandMethods proxy() {
            return (CommandMethods) Proxy.newProxyInstance(CommandMethods.class.getClassLoader(),
                    new Class<?>[] {CommandMethods.class}, this);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "CommandMethods proxy";
                };
            }
            JsonRpcExchange exchange = current;
            ObjectNode params = (ObjectNode) args[0];
            CommandCodec.Result decoded = CommandCodec.decode(exchange.idText(), method.getName(), params);
            if (decoded instanceof CommandCodec.Rejected rejected) {
                throw new InvalidParamsException(rejected.error());
            } else if (decoded instanceof CommandCodec.Decoded command) {
                router.dispatch(command.id(), command.command(), exchange::onResponse);
                return null;
            }
            throw new IllegalStateException("unhandled decoding: " + decoded.getClass().getSimpleName());
        }
    }

    /** CommandCodec rejected the params: -32602 with its message. */
    private static final class InvalidParamsException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidParamsException(String message) {
            super(message, null, false, false);
        }
    }
}
