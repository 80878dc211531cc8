package dev.agentd.server.mcp;

/** An MCP server could not be reached or answered wrongly; the message is one printable line. */
final class McpException extends Exception {
    McpException(String message) {
        super(message);
    }
}
