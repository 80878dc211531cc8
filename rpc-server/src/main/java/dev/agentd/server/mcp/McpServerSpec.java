package dev.agentd.server.mcp;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One MCP server as configured: its name (the namespace of its tools), how to reach it, and the
 * per-request timeout (progress notifications restart it). The environment and header values may
 * be secrets: {@link #toString()} of the transports never shows them.
 *
 * @param source where the entry came from ("settings.json", "session/new"), for messages
 */
public record McpServerSpec(String name, Transport transport, long timeoutMs, String source) {

    /** The two ways to reach a server. */
    public sealed interface Transport {
        /** "stdio", "http" or "sse", as shown in {@code get_state}. */
        String kind();
    }

    /**
     * A server spawned as a child process that speaks line-delimited JSON-RPC on its stdin/stdout.
     *
     * @param env what the server's environment adds to the small base set (see {@code StdioTransport})
     */
    public record Stdio(String command, List<String> args, Map<String, String> env, Path cwd) implements Transport {
        public Stdio {
            args = List.copyOf(args);
            env = Map.copyOf(env);
        }

        @Override
        public String kind() {
            return "stdio";
        }

        @Override
        public String toString() {
            return "Stdio[command=" + command + ", args=" + args.size() + ", env=" + env.keySet() + ", cwd=" + cwd + "]";
        }
    }

    /**
     * A server over HTTP: Streamable HTTP, falling back to the legacy SSE transport when the
     * endpoint refuses it; {@code sse} goes straight to the legacy transport.
     */
    public record Http(String url, Map<String, String> headers, boolean sse) implements Transport {
        public Http {
            headers = Map.copyOf(headers);
        }

        @Override
        public String kind() {
            return sse ? "sse" : "http";
        }

        @Override
        public String toString() {
            return "Http[url=" + url + ", headers=" + headers.keySet() + ", sse=" + sse + "]";
        }
    }
}
