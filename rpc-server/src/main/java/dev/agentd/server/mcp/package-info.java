/**
 * The MCP client: servers from settings.json or ACP's {@code mcpServers}, connected per session,
 * their tools offered to the model under {@code mcp__<server>__<tool>}. May import
 * {@code protocol}, {@code ai.ToolDefinition}, {@code tools} and {@code runtime}.
 *
 * <p>Pure rules: {@link dev.agentd.server.mcp.McpConfig} (entries), {@link dev.agentd.server.mcp.McpNames}
 * (namespacing), {@link dev.agentd.server.mcp.McpResults} (results for the model). State and effects:
 * {@link dev.agentd.server.mcp.McpServers} (one session's servers, their status) and its tools
 * ({@code McpTool}). Only {@code McpSdk} and {@code StdioTransport} name the MCP Java SDK's types,
 * and nothing loads them unless a server is configured.
 */
package dev.agentd.server.mcp;
