package dev.agentd.server.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentd.server.runtime.KnownSecrets;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The one class (with the {@link StdioTransport} it builds) that names the MCP Java SDK's types:
 * nothing loads it, nor the SDK, unless a server is configured. The SDK does the protocol
 * (initialize and version negotiation, request ids, notifications, Streamable HTTP sessions and
 * the legacy SSE transport); this class turns its records into JSON for the rest of agentd.
 */
final class McpSdk {
    private static final Logger LOG = LoggerFactory.getLogger(McpSdk.class);
    /** A reply of any one HTTP response beyond this ends the request (the SDK enforces it). */
    static final int MAX_HTTP_RESPONSE_BYTES = 16 * 1024 * 1024;
    private static final int MAX_TOOL_PAGES = 20;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** agentd bounds every wait itself (progress restarts a call's clock); the SDK's own bound is a backstop. */
    private static final Duration SDK_REQUEST_TIMEOUT = Duration.ofHours(2);
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(MAPPER);
    /** A tool's structured output is text for the model, never trusted as data: nothing to validate. */
    private static final JsonSchemaValidator NO_VALIDATION = new JsonSchemaValidator() {
        @Override
        public ValidationResponse validate(Map<String, Object> schema, Object content) {
            return ValidationResponse.asValid(null);
        }
    };

    private McpSdk() {}

    /**
     * Connects, initializes and lists the tools, each step within {@code spec.timeoutMs()}.
     *
     * @throws McpException naming the server and what failed
     */
    static McpLink connect(McpServerSpec spec, McpLink.Events events) throws McpException {
        if (spec.transport() instanceof McpServerSpec.Http http && !http.sse()) {
            try {
                return open(spec, events, streamable(http));
            } catch (McpException streamableFailure) {
                // An old server speaks only the SSE transport; a server that refused Streamable HTTP may.
                try {
                    return open(spec, events, sse(http));
                } catch (McpException sseFailure) {
                    throw new McpException(streamableFailure.getMessage() + " (over the legacy SSE transport too: "
                            + sseFailure.getMessage() + ")");
                }
            }
        }
        McpClientTransport transport;
        try {
            transport = transportFor(spec, events);
        } catch (IllegalStateException e) {
            throw new McpException(e.getMessage());
        }
        return open(spec, events, transport);
    }

    private static McpClientTransport transportFor(McpServerSpec spec, McpLink.Events events) {
        if (spec.transport() instanceof McpServerSpec.Stdio stdio) {
            stdio.env().values().forEach(KnownSecrets::add);
            // Checked here: the SDK turns a transport that cannot connect into a vague initialize failure.
            StdioTransport.requireExecutable(stdio.command(),
                    StdioTransport.environment(System.getenv(), stdio.env()).get("PATH"), stdio.cwd());
            return new StdioTransport(spec.name(), stdio, JSON, events::closed);
        }
        return sse((McpServerSpec.Http) spec.transport());
    }

    private static McpClientTransport streamable(McpServerSpec.Http http) {
        http.headers().values().forEach(KnownSecrets::add);
        return HttpClientStreamableHttpTransport.builder(http.url()).jsonMapper(JSON)
                .customizeClient(client -> client.connectTimeout(CONNECT_TIMEOUT))
                .httpRequestCustomizer((request, method, uri, body, context) -> http.headers().forEach(request::header))
                .maxResponseSize(MAX_HTTP_RESPONSE_BYTES).build();
    }

    private static McpClientTransport sse(McpServerSpec.Http http) {
        http.headers().values().forEach(KnownSecrets::add);
        java.net.URI uri = java.net.URI.create(http.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String endpoint = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/sse"
                : uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        return HttpClientSseClientTransport.builder(base).sseEndpoint(endpoint).jsonMapper(JSON)
                .customizeClient(client -> client.connectTimeout(CONNECT_TIMEOUT))
                .httpRequestCustomizer((request, method, target, body, context) -> http.headers().forEach(request::header))
                .maxResponseSize(MAX_HTTP_RESPONSE_BYTES).build();
    }

    private static McpLink open(McpServerSpec spec, McpLink.Events events, McpClientTransport inner)
            throws McpException {
        Tracking transport = new Tracking(inner);
        Duration timeout = Duration.ofMillis(spec.timeoutMs());
        McpAsyncClient client = McpClient.async(transport)
                .clientInfo(new McpSchema.Implementation("agentd", "1"))
                .capabilities(McpSchema.ClientCapabilities.builder().build())
                .requestTimeout(SDK_REQUEST_TIMEOUT)
                .initializationTimeout(timeout)
                .jsonSchemaValidator(NO_VALIDATION)
                .toolsChangeConsumer(tools -> Mono.fromRunnable(() -> events.toolsChanged(json(tools))))
                .progressConsumer(note -> Mono.fromRunnable(() -> events.progress(String.valueOf(note.progressToken()),
                        note.progress() == null ? 0 : note.progress(), note.total(), note.message())))
                .loggingConsumer(note -> Mono.fromRunnable(() -> LOG.debug("MCP server '{}' log ({}): {}", spec.name(),
                        note.level(), McpConfig.printable(String.valueOf(note.data())))))
                .build();
        try {
            client.initialize().block(timeout.plusSeconds(1));
            List<JsonNode> tools = new ArrayList<>();
            String cursor = null;
            for (int page = 0; page < MAX_TOOL_PAGES; page++) {
                McpSchema.ListToolsResult listed = client.listTools(cursor).block(timeout);
                if (listed == null) {
                    break;
                }
                tools.addAll(json(listed.tools()));
                cursor = listed.nextCursor();
                if (cursor == null || cursor.isEmpty()) {
                    break;
                }
            }
            String kind = inner instanceof StdioTransport ? "stdio"
                    : inner instanceof HttpClientSseClientTransport ? "sse" : "http";
            return new Link(client, transport, List.copyOf(tools), kind);
        } catch (RuntimeException e) {
            client.close();
            transport.closeGracefully().subscribe(ignored -> {}, ignored -> {});
            throw new McpException(describe(e));
        }
    }

    private static List<JsonNode> json(List<McpSchema.Tool> tools) {
        return tools == null ? List.of() : tools.stream().map(tool -> (JsonNode) MAPPER.valueToTree(tool)).toList();
    }

    /** One line for a failure out of the SDK or the transport, without stack or body dumps. */
    static String describe(Throwable e) {
        // block() wraps checked failures in reactor's own exception: the cause is the story.
        Throwable cause = reactor.core.Exceptions.unwrap(e);
        while (cause.getCause() != null && cause.getCause() != cause
                && (cause.getMessage() == null || cause.getClass().getName().startsWith("reactor."))) {
            cause = cause.getCause();
        }
        if (cause instanceof java.util.concurrent.TimeoutException) {
            return "no answer in time";
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return McpConfig.printable(message.length() > 300 ? message.substring(0, 300) : message);
    }

    /** A connected client. */
    private record Link(McpAsyncClient client, Tracking wire, List<JsonNode> tools, String kind)
            implements McpLink {

        @Override
        public String transport() {
            return kind;
        }

        @Override
        public CompletableFuture<JsonNode> call(String tool, JsonNode arguments, String progressToken) {
            @SuppressWarnings("unchecked")
            Map<String, Object> args = arguments == null || !arguments.isObject() ? Map.of()
                    : MAPPER.convertValue(arguments, Map.class);
            McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(tool, args,
                    Map.of("progressToken", progressToken));
            CompletableFuture<JsonNode> result = new CompletableFuture<>();
            reactor.core.Disposable running = client.callTool(request).subscribe(
                    value -> result.complete(MAPPER.valueToTree(value)),
                    error -> result.completeExceptionally(new McpException(describe(error))),
                    () -> result.completeExceptionally(new McpException("the server sent no result")));
            result.whenComplete((value, error) -> {
                if (result.isCancelled()) {
                    running.dispose();
                }
            });
            return result;
        }

        @Override
        public void cancel(String progressToken, String reason) {
            Object requestId = wire.calls.remove(progressToken);
            if (requestId != null) {
                wire.sendMessage(new McpSchema.JSONRPCNotification("2.0", "notifications/cancelled",
                        Map.of("requestId", requestId, "reason", reason))).subscribe(ignored -> {}, ignored -> {});
            }
        }

        @Override
        public void close() {
            try {
                client.closeGracefully().block(Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.debug("closing an MCP client: {}", e.toString());
            }
            wire.closeGracefully().block(Duration.ofSeconds(5));
        }
    }

    /** The transport a client talks through, remembering which request id each call's progress token got. */
    private static final class Tracking implements McpClientTransport {
        private final McpClientTransport inner;
        private final Map<String, Object> calls = new ConcurrentHashMap<>();

        Tracking(McpClientTransport inner) {
            this.inner = inner;
        }

        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return inner.connect(handler);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            if (message instanceof McpSchema.JSONRPCRequest request && "tools/call".equals(request.method())
                    && request.params() instanceof McpSchema.CallToolRequest call && call.meta() != null
                    && call.meta().get("progressToken") instanceof String token) {
                if (calls.size() > 10_000) {
                    calls.clear(); // tokens of calls that ended are dropped by cancel; this only bounds a leak
                }
                calls.put(token, request.id());
            }
            return inner.sendMessage(message);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return inner.closeGracefully();
        }

        @Override
        public void setExceptionHandler(java.util.function.Consumer<Throwable> handler) {
            inner.setExceptionHandler(handler);
        }

        @Override
        public List<String> protocolVersions() {
            return inner.protocolVersions();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return inner.unmarshalFrom(data, typeRef);
        }
    }
}
