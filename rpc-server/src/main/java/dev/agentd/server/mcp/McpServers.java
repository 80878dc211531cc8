package dev.agentd.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentd.protocol.response.McpServerStatus;
import dev.agentd.server.runtime.CancellationToken;
import dev.agentd.server.tools.Tool;
import dev.agentd.server.tools.ToolSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP servers of one session: each connects on a thread of its own when the session opens
 * (so neither {@code ready} nor {@code session/new} waits); the first run waits for those still
 * starting at most {@link #STARTUP_WAIT_MS}. A server that fails to start or whose connection ends
 * is reported once (to {@code problems}: an ACP notice, a log line) and listed as failed in
 * {@code get_state}; the session goes on with the others. Closing stops every server.
 */
public final class McpServers implements ToolSource, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(McpServers.class);
    static final long STARTUP_WAIT_MS = 10_000;
    static final int MAX_TOOLS_PER_SERVER = 256;

    private final List<Server> servers = new ArrayList<>();
    private final Consumer<String> problems;
    private final long startedNanos = System.nanoTime();
    private volatile boolean closed;

    private McpServers(List<McpServerSpec> specs, Consumer<String> problems,
            Function<Server, Optional<McpLink>> connector) {
        this.problems = problems;
        for (McpServerSpec spec : specs) {
            servers.add(new Server(spec));
        }
        for (Server server : servers) {
            Thread thread = new Thread(() -> server.start(connector), "agentd-mcp-" + server.spec.name() + "-start");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Starts {@code specs} through the MCP SDK; {@code problems} hears each failure once, as a sentence. */
    public static McpServers start(List<McpServerSpec> specs, Consumer<String> problems) {
        // A lambda, not a method reference: McpSdk (and the SDK) load when a server connects, not here.
        return new McpServers(specs, problems, server -> server.connectWithSdk());
    }

    /** For tests: links made by {@code links} instead of the SDK. */
    static McpServers startWith(List<McpServerSpec> specs, Consumer<String> problems,
            Function<McpServerSpec, McpLink> links) {
        return new McpServers(specs, problems, server -> Optional.of(links.apply(server.spec)));
    }

    @Override
    public List<Tool> tools() {
        List<Tool> all = new ArrayList<>();
        for (Server server : servers) {
            all.addAll(server.tools);
        }
        return all;
    }

    /**
     * These servers' tools as {@code decorate} wraps them (an editor's permission requests), read
     * afresh each time: a server that connects or changes its list shows at the next request.
     */
    public ToolSource decoratedBy(UnaryOperator<List<Tool>> decorate) {
        return new ToolSource() {
            @Override
            public List<Tool> tools() {
                List<Tool> current = McpServers.this.tools();
                return current.isEmpty() ? current : decorate.apply(current);
            }

            @Override
            public void awaitReady(CancellationToken cancel) {
                McpServers.this.awaitReady(cancel);
            }
        };
    }

    @Override
    public void awaitReady(CancellationToken cancel) {
        for (Server server : servers) {
            long left = STARTUP_WAIT_MS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
            if (left <= 0 || cancel.isCancelled()) {
                return;
            }
            CompletableFuture<Object> stop = new CompletableFuture<>();
            Runnable unhook = cancel.onCancel(() -> stop.complete(null));
            try {
                CompletableFuture.anyOf(server.started, stop).get(left, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                // a failed start is reported by the server itself
            } finally {
                unhook.run();
            }
        }
    }

    /** Each server with its status and tool count, in configuration order. */
    public List<McpServerStatus> status() {
        return servers.stream().map(Server::status).toList();
    }

    /** The failed servers, one sentence each (for {@code get_state}'s warnings). */
    public List<String> warnings() {
        return servers.stream().filter(server -> server.closedReason != null && !closed)
                .map(server -> "MCP server '" + server.spec.name() + "' " + server.closedReason).toList();
    }

    /** The events of the {@code index}th server, as the SDK reports them (tests). */
    McpLink.Events eventsFor(int index) {
        return servers.get(index);
    }

    @Override
    public void close() {
        closed = true;
        servers.parallelStream().forEach(Server::close);
    }

    /** One server's state: its link, its tools, and why it ended. */
    private final class Server implements McpTool.Server, McpLink.Events {
        private final McpServerSpec spec;
        private final CompletableFuture<Void> started = new CompletableFuture<>();
        private final Map<String, Consumer<String>> progress = new ConcurrentHashMap<>();
        private final Map<String, CompletableFuture<String>> calls = new ConcurrentHashMap<>();
        private volatile McpLink link;
        private volatile List<Tool> tools = List.of();
        private volatile String closedReason;

        Server(McpServerSpec spec) {
            this.spec = spec;
        }

        Optional<McpLink> connectWithSdk() {
            try {
                return Optional.of(McpSdk.connect(spec, this));
            } catch (McpException e) {
                fail("failed to start: " + e.getMessage());
                return Optional.empty();
            }
        }

        void start(Function<Server, Optional<McpLink>> connector) {
            try {
                Optional<McpLink> connected = connector.apply(this);
                if (connected.isEmpty()) {
                    return;
                }
                if (closed) {
                    connected.get().close();
                    return;
                }
                link = connected.get();
                toolsChanged(link.tools());
                LOG.info("MCP server '{}' connected ({}, {} tools)", spec.name(), link.transport(), tools.size());
            } catch (RuntimeException e) {
                fail("failed to start: " + McpConfig.printable(String.valueOf(e.getMessage())));
            } finally {
                started.complete(null);
            }
        }

        private void fail(String reason) {
            if (closedReason != null || closed) {
                return;
            }
            closedReason = reason;
            tools = List.of();
            calls.values().forEach(call -> call.complete(reason.startsWith("failed") ? reason
                    : "ended its connection: " + reason));
            String sentence = "MCP server '" + spec.name() + "' " + reason
                    + "; the session goes on without its tools";
            LOG.warn("{}", sentence);
            problems.accept(sentence);
        }

        @Override
        public void toolsChanged(List<JsonNode> listed) {
            if (closedReason != null) {
                return;
            }
            List<JsonNode> bounded = listed.size() > MAX_TOOLS_PER_SERVER ? listed.subList(0, MAX_TOOLS_PER_SERVER)
                    : listed;
            if (listed.size() > MAX_TOOLS_PER_SERVER) {
                LOG.warn("MCP server '{}' lists {} tools; only the first {} are offered", spec.name(), listed.size(),
                        MAX_TOOLS_PER_SERVER);
            }
            List<String> names = bounded.stream().map(tool -> tool.path("name").asText("")).toList();
            Map<String, String> namespaced = McpNames.namespaced(spec.name(), names);
            List<Tool> built = new ArrayList<>();
            for (JsonNode tool : bounded) {
                String remote = tool.path("name").asText("");
                if (remote.isEmpty()) {
                    continue;
                }
                String name = namespaced.get(remote);
                built.add(new McpTool(this, remote, McpTool.definitionOf(spec.name(), name, tool)));
            }
            tools = List.copyOf(built);
        }

        @Override
        public void progress(String token, double done, Double total, String message) {
            Consumer<String> listener = progress.get(token);
            if (listener != null) {
                String text = "progress " + (long) done + (total == null ? "" : "/" + total.longValue())
                        + (message == null ? "" : ": " + McpConfig.printable(message));
                listener.accept(text);
            }
        }

        @Override
        public void closed(String reason) {
            fail("ended its connection: " + reason);
        }

        @Override
        public String name() {
            return spec.name();
        }

        @Override
        public long timeoutMs() {
            return spec.timeoutMs();
        }

        @Override
        public Optional<McpLink> link() {
            return closedReason == null ? Optional.ofNullable(link) : Optional.empty();
        }

        @Override
        public String closedReason() {
            return closedReason == null ? "it is still starting" : closedReason;
        }

        @Override
        public Runnable watch(String token, Consumer<String> onProgress, CompletableFuture<String> stop) {
            progress.put(token, onProgress);
            calls.put(token, stop);
            if (closedReason != null) {
                stop.complete(closedReason);
            }
            return () -> {
                progress.remove(token);
                calls.remove(token);
            };
        }

        McpServerStatus status() {
            String status = closedReason != null ? "failed" : closed ? "closed" : link != null ? "connected" : "starting";
            McpLink open = link;
            return new McpServerStatus(spec.name(), open != null ? open.transport() : spec.transport().kind(), status,
                    tools.size(), closedReason);
        }

        void close() {
            McpLink open = link;
            if (open != null) {
                open.close();
            }
        }
    }
}
